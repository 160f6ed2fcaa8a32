// hpack.js (pure JavaScript HPACK): one compressor / decompressor per connection direction.
// Its table option is `maxSize` (lib/hpack/table.js); the README's `size` leaves the protocol
// maximum undefined, and every dynamic table size update is then refused.
import { Buffer } from 'node:buffer';
import hpackJs from 'hpack.js';

interface HpackJsField {
  name: string;
  value: string;
  neverIndex?: boolean;
}
interface Compressor {
  write(fields: HpackJsField[]): void;
  read(): Buffer | null;
}
interface Decompressor {
  write(block: Uint8Array): void;
  execute(): void;
  read(): HpackJsField | null;
}
interface HpackJs {
  compressor: { create(options: { table: { maxSize: number } }): Compressor };
  decompressor: { create(options: { table: { maxSize: number } }): Decompressor };
}

const hpack = hpackJs as HpackJs;

export function hpackJsEncoder(tableSize = 4096): (headers: [string, string][]) => Uint8Array {
  const compressor = hpack.compressor.create({ table: { maxSize: tableSize } });
  return (headers) => {
    compressor.write(headers.map(([name, value]) => ({ name, value })));
    const parts: Buffer[] = [];
    for (let chunk = compressor.read(); chunk; chunk = compressor.read()) parts.push(chunk);
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  };
}

export function hpackJsDecoder(tableSize = 4096): (block: Uint8Array) => [string, string][] {
  const decompressor = hpack.decompressor.create({ table: { maxSize: tableSize } });
  return (block) => {
    decompressor.write(block);
    decompressor.execute();
    const out: [string, string][] = [];
    for (let field = decompressor.read(); field; field = decompressor.read()) out.push([field.name, field.value]);
    return out;
  };
}
