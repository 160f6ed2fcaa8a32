// The Autobahn testsuite's section 9 ("limits and performance", case9_*.py of
// crossbario/autobahn-testsuite) for a server, as data: large messages in one frame (9.1 text, 9.2
// binary: 64 KiB to 16 MiB), a 4 MiB message in fragments of 64 B to 4 MiB (9.3, 9.4), a 1 MiB
// frame written in chops of 64 B to 2 KiB (9.5, 9.6), and 1,000 round trips of 0 B to 4 KiB
// messages (9.7, 9.8). The suite reports times; a case passes when every echo comes back whole.
// The server under test raises its limits to the suite's sizes (maxPayload 16 MiB, maxFragments
// 65,536), as a server that is to take them must.

const KiB = 1024;
const MiB = 1024 * KiB;
const TEXT = 0x1;
const BINARY = 0x2;

export interface PerformanceCase {
  id: string;
  opcode: typeof TEXT | typeof BINARY;
  /** Payload bytes of each message (made when the case runs: the largest is 16 MiB). */
  length: number;
  /** Bytes per frame, 0 for one frame. */
  fragment: number;
  /** Bytes per write of the client's frames, Infinity for one write. */
  chop: number;
  /** Messages sent one after another, each once the last came back. */
  count: number;
}

/** The limits the echo route takes for these cases. */
export const PERFORMANCE_QUERY = `maxPayload=${16 * MiB}&maxFragments=65536`;

const one = (id: string, opcode: PerformanceCase['opcode'], length: number, rest: Partial<PerformanceCase> = {}): PerformanceCase => ({
  id,
  opcode,
  length,
  fragment: 0,
  chop: Infinity,
  count: 1,
  ...rest,
});

const LARGE = [64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB, 8 * MiB, 16 * MiB];
const FRAGMENTS = [64, 256, 1 * KiB, 4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB];
const CHOPS = [64, 128, 256, 512, 1024, 2048];
const ROUND_TRIPS = [0, 16, 64, 256, 1 * KiB, 4 * KiB];

export const PERFORMANCE_CASES: PerformanceCase[] = [
  ...LARGE.map((length, i) => one(`9.1.${i + 1}`, TEXT, length)),
  ...LARGE.map((length, i) => one(`9.2.${i + 1}`, BINARY, length)),
  ...FRAGMENTS.map((fragment, i) => one(`9.3.${i + 1}`, TEXT, 4 * MiB, { fragment })),
  ...FRAGMENTS.map((fragment, i) => one(`9.4.${i + 1}`, BINARY, 4 * MiB, { fragment })),
  ...CHOPS.map((chop, i) => one(`9.5.${i + 1}`, TEXT, 1 * MiB, { chop })),
  ...CHOPS.map((chop, i) => one(`9.6.${i + 1}`, BINARY, 1 * MiB, { chop })),
  ...ROUND_TRIPS.map((length, i) => one(`9.7.${i + 1}`, TEXT, length, { count: 1000 })),
  ...ROUND_TRIPS.map((length, i) => one(`9.8.${i + 1}`, BINARY, length, { count: 1000 })),
];

/** The case's message: '*' repeated for text, 0xfe for binary (the suite's payloads). */
export function payloadOf(c: PerformanceCase): Buffer {
  return Buffer.alloc(c.length, c.opcode === TEXT ? 0x2a : 0xfe);
}
