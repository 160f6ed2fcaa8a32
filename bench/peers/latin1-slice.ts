// Bytes → latin1 string as node:http and undici make them: Buffer's latin1Slice on Node and Deno;
// the browser bundle's `buffer` package has the same through toString.
import type { Buffer } from 'node:buffer';

type Latin1Buffer = Buffer & { latin1Slice?(start: number, end: number): string };

export function latin1Slicer(buffer: Buffer): (start: number, end: number) => string {
  const view = buffer as Latin1Buffer;
  return view.latin1Slice ? (start, end) => view.latin1Slice!(start, end) : (start, end) => view.toString('latin1', start, end);
}
