// Messages of the IPC benchmarks.
export const SMALL = { type: 'health', ok: true, uptime: 12345 };

export const MEDIUM = {
  method: 'POST',
  url: '/api/orders?expand=items',
  headers: [
    ['host', 'api.example.com'],
    ['content-type', 'application/json'],
    ['accept', 'application/json'],
    ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0'],
    ['authorization', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc'],
    ['x-request-id', '5f3a1c2b-7d9e-4f10-8a6b-2c3d4e5f6a7b'],
    ['accept-encoding', 'gzip, br'],
    ['content-length', '180'],
  ],
  body: JSON.stringify({
    customer: 42,
    items: [
      { sku: 'A-1', qty: 2 },
      { sku: 'B-7', qty: 1 },
    ],
    note: 'leave at door',
  }),
};

export function items(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    email: `user${i}@example.com`,
    active: i % 3 !== 0,
    score: (i * 7.31) % 100,
    tags: ['alpha', 'beta', 'gamma'].slice(0, (i % 3) + 1),
  }));
}

export const LARGE = { items: items(100) };
