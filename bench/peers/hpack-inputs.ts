// Header lists of the HPACK benchmarks.
export type HeaderList = [string, string][];

/** The first request a browser sends on a connection. */
export const BROWSER_REQUEST: HeaderList = [
  [':method', 'GET'],
  [':authority', 'www.example.com'],
  [':scheme', 'https'],
  [':path', '/docs/getting-started'],
  ['sec-ch-ua', '"Chromium";v="124", "Not-A.Brand";v="99"'],
  ['sec-ch-ua-mobile', '?0'],
  ['sec-ch-ua-platform', '"Linux"'],
  ['upgrade-insecure-requests', '1'],
  ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'],
  ['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
  ['sec-fetch-site', 'none'],
  ['sec-fetch-mode', 'navigate'],
  ['sec-fetch-user', '?1'],
  ['sec-fetch-dest', 'document'],
  ['accept-encoding', 'gzip, deflate, br, zstd'],
  ['accept-language', 'en-US,en;q=0.9'],
];

/** A typical response. */
export const RESPONSE: HeaderList = [
  [':status', '200'],
  ['content-type', 'text/html; charset=utf-8'],
  ['content-length', '14872'],
  ['date', 'Sun, 22 Nov 2026 12:00:00 GMT'],
  ['server', 'wirespeed'],
  ['cache-control', 'public, max-age=300'],
  ['etag', '"5f3a-1c9b2e7d"'],
  ['vary', 'accept-encoding'],
  ['strict-transport-security', 'max-age=63072000; includeSubDomains'],
];

/** A request with 50 fields. */
export const FIFTY_FIELDS: HeaderList = [
  [':method', 'GET'],
  [':authority', 'api.example.com'],
  [':scheme', 'https'],
  [':path', '/v1/resources/42'],
  ...Array.from({ length: 46 }, (_, i): [string, string] => [
    `x-custom-header-${String(i).padStart(2, '0')}`,
    `value-${i}-${'abcdef'.slice(0, (i % 6) + 1)}`,
  ]),
];
