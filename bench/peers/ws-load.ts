// The WebSocket load client: `node ws-load.js PORT CONNECTIONS BYTES text|binary SECONDS`. Each
// connection sends one message and waits for its echo before the next (closed loop), for the
// given time; prints one JSON line: round trips, seconds, latency percentiles (ms), errors.
// Written on raw sockets with one frame masked ahead of time, so the client costs little: the
// server under test, not this process, should be what limits the rate.
import net from 'node:net';

const [portText, connectionsText, bytesText, kind, secondsText] = process.argv.slice(2);
const port = Number(portText);
const connections = Number(connectionsText);
const size = Number(bytesText);
const seconds = Number(secondsText);
const MASK = [0x5a, 0x17, 0xc3, 0x99];
/** Latencies kept: a sample of the first ones is enough for percentiles. */
const MAX_LATENCIES = 200_000;

function maskedFrame(): Buffer {
  const payload = Buffer.alloc(size, kind === 'text' ? 0x61 : 0xa7);
  const length =
    size < 126
      ? [size]
      : size <= 0xffff
        ? [126, size >> 8, size & 0xff]
        : [127, 0, 0, 0, 0, size >>> 24, (size >> 16) & 0xff, (size >> 8) & 0xff, size & 0xff];
  const header = Buffer.from([kind === 'text' ? 0x81 : 0x82, 0x80 | length[0], ...length.slice(1), ...MASK]);
  for (let i = 0; i < payload.length; i++) payload[i] ^= MASK[i % 4];
  return Buffer.concat([header, payload]);
}

const frame = maskedFrame();
/** The echo's size on the wire: an unmasked header and the payload. */
const echoBytes = (size < 126 ? 2 : size <= 0xffff ? 4 : 10) + size;
const latencies: number[] = [];
let roundTrips = 0;
let errors = 0;
let running = true;

function connect(): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let handshaken = false;
    let pending = 0;
    let sentAt = 0;
    let head = '';
    const send = () => {
      sentAt = performance.now();
      socket.write(frame);
    };
    socket.on('connect', () => {
      socket.write(
        'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (!handshaken) {
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!head.startsWith('HTTP/1.1 101')) {
          errors++;
          socket.destroy();
          return resolve();
        }
        handshaken = true;
        pending = head.length - end - 4;
        resolve();
        return send();
      }
      // Echoes come back whole and in order: count bytes, one message per echoBytes.
      pending += chunk.length;
      while (pending >= echoBytes) {
        pending -= echoBytes;
        roundTrips++;
        if (latencies.length < MAX_LATENCIES) latencies.push(performance.now() - sentAt);
        if (running) send();
        else socket.destroy();
      }
    });
    socket.on('error', () => {
      errors++;
      resolve();
    });
  });
}

await Promise.all(Array.from({ length: connections }, connect));
const started = performance.now();
const before = roundTrips;
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
running = false;
const elapsed = (performance.now() - started) / 1000;
const done = roundTrips - before;
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
const mean = latencies.reduce((sum, value) => sum + value, 0) / latencies.length;
process.stdout.write(
  JSON.stringify({
    roundTrips: done,
    seconds: elapsed,
    mean,
    p50: at(0.5),
    p75: at(0.75),
    p90: at(0.9),
    p99: at(0.99),
    errors,
    bytes: done * echoBytes,
  }) + '\n',
);
process.exit(0);
