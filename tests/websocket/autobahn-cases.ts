// The Autobahn testsuite's fuzzing-client cases for a server, sections 1-7 and 10, ported from
// crossbario/autobahn-testsuite (autobahntestsuite/case/*.py) as data: what the client sends, and
// what the server must answer (the cases' "OK" outcome: the echoes and pongs, in order, then the
// close code). Section 9 is in autobahn-performance.ts, 12-13 (compression) in autobahn-deflate.ts.
// The suite's one-second waits are 100 ms here.

import { clientFrame, closeFrame, messageFrames } from './raw-client.js';

/** What the client does, in order. */
export type Step =
  /** Bytes written at once (one or more frames), or `chop` bytes per write, each write awaited. */
  | { send: Buffer; chop?: number }
  | { pause: number }
  /** Records `timeout <name>` if the server has not closed the connection by now (6.4.x fail-fast). */
  | { mark: string };

/** What the client must see: echoes (`text`/`binary` with the payload), pongs and marks, in order. */
export type Event = ['text' | 'binary' | 'pong', Buffer] | ['timeout', string];

export interface AutobahnCase {
  id: string;
  steps: Step[];
  events: Event[];
  /**
   * Who closes: `client` sends a close (1000) once the events came (or has sent its own close frames
   * in `steps`), and the server must answer it with one of `codes`; `server` fails the connection
   * with one of `codes` by itself.
   */
  close: { by: 'client' | 'server'; codes: number[]; clientSentClose?: true };
  /** Outcomes the suite calls informational (the spec leaves them open): only the close is checked. */
  informational?: true;
}

const NORMAL = 1000;
const PROTOCOL_ERROR = 1002;
const INVALID_PAYLOAD = 1007;
const WAIT = 100;

/** "κόσμε" as the suite spells it: 11 bytes, with U+1F79 (omicron with oxia), not U+03CC. */
const GREEK = '\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5';

const bytes = (value: string | Buffer) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : value);
const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** A masked client frame (the fuzzer's `sendFrame`): `payloadLength` repeats the payload to that length. */
export function frame(opcode: number, payload: string | Buffer = '', { fin = true, rsv = 0, payloadLength = 0 } = {}): Buffer {
  const data = bytes(payload);
  return clientFrame((fin ? 0x80 : 0) | (rsv << 4) | opcode, payloadLength ? Buffer.alloc(payloadLength, data) : data);
}

const send = (...frames: Buffer[]): Step => ({ send: Buffer.concat(frames) });
/** The fuzzer's `sync = True`: each frame in a write of its own. */
const sync = (...frames: Buffer[]): Step[] => frames.flatMap((f) => [{ send: f }, { pause: 5 }]);
const chopped = (size: number, ...frames: Buffer[]): Step[] => frames.map((f) => ({ send: f, chop: size }));
const echoed = (kind: 'text' | 'binary', payload: string | Buffer): Event => [kind, bytes(payload)];
const pong = (payload: string | Buffer): Event => ['pong', bytes(payload)];
const byClient = (...codes: number[]) => ({ by: 'client' as const, codes: codes.length ? codes : [NORMAL] });
const failed = (...codes: number[]) => ({ by: 'server' as const, codes: codes.length ? codes : [PROTOCOL_ERROR] });
const clientClosed = (...codes: number[]) => ({ by: 'client' as const, codes, clientSentClose: true as const });

function framing(): AutobahnCase[] {
  const sizes = [0, 125, 126, 127, 128, 65535, 65536];
  const cases: AutobahnCase[] = [];
  for (const [section, opcode, unit, kind] of [
    ['1.1', 0x1, '*', 'text'],
    ['1.2', 0x2, '\xfe', 'binary'],
  ] as const) {
    sizes.forEach((size, i) => {
      const payload = bytes(unit.repeat(size));
      cases.push({ id: `${section}.${i + 1}`, steps: [send(frame(opcode, payload))], events: [echoed(kind, payload)], close: byClient() });
    });
    const payload = bytes(unit.repeat(65536));
    cases.push({ id: `${section}.8`, steps: chopped(997, frame(opcode, payload)), events: [echoed(kind, payload)], close: byClient() });
  }
  return cases;
}

function pings(): AutobahnCase[] {
  const binary = '\x00\xff\xfe\xfd\xfc\xfb\x00\xff';
  const tenPings = Array.from({ length: 10 }, (_, i) => `payload-${i}`);
  return [
    { id: '2.1', steps: [send(frame(0x9))], events: [pong('')], close: byClient() },
    { id: '2.2', steps: [send(frame(0x9, 'Hello, world!'))], events: [pong('Hello, world!')], close: byClient() },
    { id: '2.3', steps: [send(frame(0x9, binary))], events: [pong(binary)], close: byClient() },
    { id: '2.4', steps: [send(frame(0x9, '\xfe'.repeat(125)))], events: [pong('\xfe'.repeat(125))], close: byClient() },
    { id: '2.5', steps: [send(frame(0x9, '\xfe'.repeat(126)))], events: [], close: failed() },
    { id: '2.6', steps: chopped(1, frame(0x9, '\xfe'.repeat(125))), events: [pong('\xfe'.repeat(125))], close: byClient() },
    { id: '2.7', steps: [send(frame(0xa), closeFrame(NORMAL))], events: [], close: clientClosed(NORMAL) },
    { id: '2.8', steps: [send(frame(0xa, 'unsolicited pong payload'), closeFrame(NORMAL))], events: [], close: clientClosed(NORMAL) },
    {
      id: '2.9',
      steps: [send(frame(0xa, 'unsolicited pong payload'), frame(0x9, 'ping payload'))],
      events: [pong('ping payload')],
      close: byClient(),
    },
    { id: '2.10', steps: [send(...tenPings.map((p) => frame(0x9, p)))], events: tenPings.map(pong), close: byClient() },
    { id: '2.11', steps: chopped(1, ...tenPings.map((p) => frame(0x9, p))), events: tenPings.map(pong), close: byClient() },
  ];
}

function reservedBits(): AutobahnCase[] {
  const hello = 'Hello, world!';
  return [
    { id: '3.1', steps: [send(frame(0x1, hello, { rsv: 1 }))], events: [], close: failed() },
    {
      id: '3.2',
      steps: [send(frame(0x1, hello), frame(0x1, hello, { rsv: 2 }), frame(0x9))],
      events: [echoed('text', hello)],
      close: failed(),
    },
    {
      id: '3.3',
      steps: sync(frame(0x1, hello), frame(0x1, hello, { rsv: 3 }), frame(0x9)),
      events: [echoed('text', hello)],
      close: failed(),
    },
    {
      id: '3.4',
      steps: chopped(1, frame(0x1, hello), frame(0x1, hello, { rsv: 4 }), frame(0x9)),
      events: [echoed('text', hello)],
      close: failed(),
    },
    { id: '3.5', steps: [send(frame(0x2, '\x00\xff\xfe\xfd\xfc\xfb\x00\xff', { rsv: 5 }))], events: [], close: failed() },
    { id: '3.6', steps: [send(frame(0x2, hello, { rsv: 6 }))], events: [], close: failed() },
    { id: '3.7', steps: [send(frame(0x8, '', { rsv: 7 }))], events: [], close: failed() },
  ];
}

function opcodes(): AutobahnCase[] {
  const hello = 'Hello, world!';
  const cases: AutobahnCase[] = [];
  for (const [section, [alone, withPayload, afterText, afterTextWithPayload, chopped1]] of [
    ['4.1', [3, 4, 5, 6, 7]],
    ['4.2', [11, 12, 13, 14, 15]],
  ] as const) {
    cases.push(
      { id: `${section}.1`, steps: [send(frame(alone))], events: [], close: failed() },
      { id: `${section}.2`, steps: [send(frame(withPayload, 'reserved opcode payload'))], events: [], close: failed() },
      {
        id: `${section}.3`,
        steps: [send(frame(0x1, hello), frame(afterText), frame(0x9))],
        events: [echoed('text', hello)],
        close: failed(),
      },
      {
        id: `${section}.4`,
        steps: [send(frame(0x1, hello), frame(afterTextWithPayload, hello), frame(0x9))],
        events: [echoed('text', hello)],
        close: failed(),
      },
      {
        id: `${section}.5`,
        steps: chopped(1, frame(0x1, hello), frame(chopped1, hello), frame(0x9)),
        events: [echoed('text', hello)],
        close: failed(),
      },
    );
  }
  return cases;
}

function fragmentation(): AutobahnCase[] {
  const [f1, f2, f3, f4, f5] = ['fragment1', 'fragment2', 'fragment3', 'fragment4', 'fragment5'];
  const hello = 'Hello, world!';
  const nonContinuation = 'non-continuation payload';
  const pingPayload = 'ping payload';
  const inThree = (ways: (...frames: Buffer[]) => Step[]) => ways(frame(0x1, f1, { fin: false }), frame(0x9, pingPayload), frame(0x0, f2));
  const interleaved = (write: (...frames: Buffer[]) => Step[]): Step[] => [
    ...write(frame(0x1, f1, { fin: false }), frame(0x0, f2, { fin: false }), frame(0x9, 'pongme 1!')),
    { pause: WAIT },
    ...write(frame(0x0, f3, { fin: false }), frame(0x0, f4, { fin: false }), frame(0x9, 'pongme 2!'), frame(0x0, f5)),
  ];
  const twoPongsThenMessage: Event[] = [pong('pongme 1!'), pong('pongme 2!'), echoed('text', f1 + f2 + f3 + f4 + f5)];
  const all = (...frames: Buffer[]): Step[] => [send(...frames)];
  return [
    { id: '5.1', steps: [send(frame(0x9, f1, { fin: false }), frame(0x0, f2))], events: [], close: failed() },
    { id: '5.2', steps: [send(frame(0xa, f1, { fin: false }), frame(0x0, f2))], events: [], close: failed() },
    { id: '5.3', steps: [send(frame(0x1, f1, { fin: false }), frame(0x0, f2))], events: [echoed('text', f1 + f2)], close: byClient() },
    { id: '5.4', steps: sync(frame(0x1, f1, { fin: false }), frame(0x0, f2)), events: [echoed('text', f1 + f2)], close: byClient() },
    { id: '5.5', steps: chopped(1, frame(0x1, f1, { fin: false }), frame(0x0, f2)), events: [echoed('text', f1 + f2)], close: byClient() },
    { id: '5.6', steps: inThree(all), events: [pong(pingPayload), echoed('text', f1 + f2)], close: byClient() },
    { id: '5.7', steps: inThree(sync), events: [pong(pingPayload), echoed('text', f1 + f2)], close: byClient() },
    { id: '5.8', steps: inThree((...f) => chopped(1, ...f)), events: [pong(pingPayload), echoed('text', f1 + f2)], close: byClient() },
    { id: '5.9', steps: [send(frame(0x0, nonContinuation), frame(0x1, hello))], events: [], close: failed() },
    { id: '5.10', steps: sync(frame(0x0, nonContinuation), frame(0x1, hello)), events: [], close: failed() },
    { id: '5.11', steps: chopped(1, frame(0x0, nonContinuation), frame(0x1, hello)), events: [], close: failed() },
    { id: '5.12', steps: [send(frame(0x0, nonContinuation, { fin: false }), frame(0x1, hello))], events: [], close: failed() },
    { id: '5.13', steps: sync(frame(0x0, nonContinuation, { fin: false }), frame(0x1, hello)), events: [], close: failed() },
    { id: '5.14', steps: chopped(1, frame(0x0, nonContinuation, { fin: false }), frame(0x1, hello)), events: [], close: failed() },
    {
      id: '5.15',
      steps: [send(frame(0x1, f1, { fin: false }), frame(0x0, f2), frame(0x0, f3, { fin: false }), frame(0x1, f4))],
      events: [echoed('text', f1 + f2)],
      close: failed(),
    },
    {
      id: '5.16',
      steps: [send(...[1, 2].flatMap(() => [frame(0x0, f1, { fin: false }), frame(0x1, f2, { fin: false }), frame(0x0, f3)]))],
      events: [],
      close: failed(),
    },
    {
      id: '5.17',
      steps: [send(...[1, 2].flatMap(() => [frame(0x0, f1), frame(0x1, f2, { fin: false }), frame(0x0, f3)]))],
      events: [],
      close: failed(),
    },
    { id: '5.18', steps: [send(frame(0x1, f1, { fin: false }), frame(0x1, f2))], events: [], close: failed() },
    { id: '5.19', steps: interleaved(all), events: twoPongsThenMessage, close: byClient() },
    { id: '5.20', steps: interleaved(sync), events: twoPongsThenMessage, close: byClient() },
  ];
}

/** `UTF-8-test.txt` (Markus Kuhn) as the suite groups it (case6_x_x.py): [title, [valid, bytes][]]. */
function utf8Sequences(): [string, [boolean, Buffer][]][] {
  const b = (s: string) => Buffer.from(s, 'latin1');
  const valid = (s: string): [boolean, Buffer] => [true, b(s)];
  const invalid = (s: string): [boolean, Buffer] => [false, b(s)];
  const vss = GREEK;
  const strict = new TextDecoder('utf-8', { fatal: true });
  const isValid = (value: Buffer) => {
    try {
      strict.decode(value);
      return true;
    } catch {
      return false;
    }
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
  const missingLast = [
    '\xc0',
    '\xe0\x80',
    '\xf0\x80\x80',
    '\xf8\x80\x80\x80',
    '\xfc\x80\x80\x80\x80',
    '\xdf',
    '\xef\xbf',
    '\xf7\xbf\xbf',
    '\xfb\xbf\xbf\xbf',
    '\xfd\xbf\xbf\xbf\xbf',
  ];
  const nonCharacters: [boolean, Buffer][] = [valid('\xef\xbf\xbe'), valid('\xef\xbf\xbf')];
  for (const z1 of ['\xf0', '\xf1', '\xf2', '\xf3', '\xf4'])
    for (const z2 of ['\x8f', '\x9f', '\xaf', '\xbf'])
      if (!(z1 === '\xf4' && z2 !== '\x8f'))
        for (const z3 of ['\xbe', '\xbf']) {
          const zz = z1 + z2 + '\xbf' + z3;
          if (zz !== '\xf0\x8f\xbf\xbe' && zz !== '\xf0\x8f\xbf\xbf') nonCharacters.push(valid(zz));
        }
  return [
    [
      'Some valid UTF-8 sequences',
      [
        valid('hello\x24world'),
        valid('hello\xc2\xa2world'),
        valid('hello\xe2\x82\xacworld'),
        valid('hello\xf0\xa4\xad\xa2world'),
        valid(vss),
      ],
    ],
    ['All prefixes of a valid UTF-8 string', range(1, vss.length + 1).map((n) => [isValid(b(vss.slice(0, n))), b(vss.slice(0, n))])],
    ['First possible sequence of a certain length', [valid('\x00'), valid('\xc2\x80'), valid('\xe0\xa0\x80'), valid('\xf0\x90\x80\x80')]],
    ['First possible sequence length 5/6 (invalid codepoints)', [invalid('\xf8\x88\x80\x80\x80'), invalid('\xfc\x84\x80\x80\x80\x80')]],
    ['Last possible sequence of a certain length', [valid('\x7f'), valid('\xdf\xbf'), valid('\xef\xbf\xbf'), valid('\xf4\x8f\xbf\xbf')]],
    [
      'Last possible sequence length 4/5/6 (invalid codepoints)',
      [invalid('\xf7\xbf\xbf\xbf'), invalid('\xfb\xbf\xbf\xbf\xbf'), invalid('\xfd\xbf\xbf\xbf\xbf\xbf')],
    ],
    [
      'Other boundary conditions',
      [valid('\xed\x9f\xbf'), valid('\xee\x80\x80'), valid('\xef\xbf\xbd'), valid('\xf4\x8f\xbf\xbf'), invalid('\xf4\x90\x80\x80')],
    ],
    [
      'Unexpected continuation bytes',
      [
        ...['\x80', '\xbf', '\x80\xbf', '\x80\xbf\x80', '\x80\xbf\x80\xbf', '\x80\xbf\x80\xbf\x80', '\x80\xbf\x80\xbf\x80\xbf'].map(
          invalid,
        ),
        invalid(String.fromCharCode(...range(0x80, 0xbf))),
      ],
    ],
    [
      'Lonely start characters',
      [
        [0xc0, 0xdf],
        [0xe0, 0xef],
        [0xf0, 0xf7],
        [0xf8, 0xfb],
        [0xfc, 0xfd],
      ].map(([from, to]) =>
        invalid(
          range(from, to)
            .map((c) => String.fromCharCode(c) + ' ')
            .join(''),
        ),
      ),
    ],
    ['Sequences with last continuation byte missing', missingLast.map(invalid)],
    ['Concatenation of incomplete sequences', [invalid(missingLast.join(''))]],
    ['Impossible bytes', [invalid('\xfe'), invalid('\xff'), invalid('\xfe\xfe\xff\xff')]],
    [
      'Examples of an overlong ASCII character',
      ['\xc0\xaf', '\xe0\x80\xaf', '\xf0\x80\x80\xaf', '\xf8\x80\x80\x80\xaf', '\xfc\x80\x80\x80\x80\xaf'].map(invalid),
    ],
    [
      'Maximum overlong sequences',
      ['\xc1\xbf', '\xe0\x9f\xbf', '\xf0\x8f\xbf\xbf', '\xf8\x87\xbf\xbf\xbf', '\xfc\x83\xbf\xbf\xbf\xbf'].map(invalid),
    ],
    [
      'Overlong representation of the NUL character',
      ['\xc0\x80', '\xe0\x80\x80', '\xf0\x80\x80\x80', '\xf8\x80\x80\x80\x80', '\xfc\x80\x80\x80\x80\x80'].map(invalid),
    ],
    [
      'Single UTF-16 surrogates',
      ['\xed\xa0\x80', '\xed\xad\xbf', '\xed\xae\x80', '\xed\xaf\xbf', '\xed\xb0\x80', '\xed\xbe\x80', '\xed\xbf\xbf'].map(invalid),
    ],
    [
      'Paired UTF-16 surrogates',
      [
        '\xed\xa0\x80\xed\xb0\x80',
        '\xed\xa0\x80\xed\xbf\xbf',
        '\xed\xad\xbf\xed\xb0\x80',
        '\xed\xad\xbf\xed\xbf\xbf',
        '\xed\xae\x80\xed\xb0\x80',
        '\xed\xae\x80\xed\xbf\xbf',
        '\xed\xaf\xbf\xed\xb0\x80',
        '\xed\xaf\xbf\xed\xbf\xbf',
      ].map(invalid),
    ],
    ['Non-character code points (valid UTF-8)', nonCharacters],
    [
      'Unicode specials (i.e. replacement char)',
      ['\xef\xbf\xb9', '\xef\xbf\xba', '\xef\xbf\xbb', '\xef\xbf\xbc', '\xef\xbf\xbd', '\xef\xbf\xbe', '\xef\xbf\xbf'].map(valid),
    ],
  ];
}

function utf8Handling(): AutobahnCase[] {
  const greek = bytes(GREEK);
  const mixed = 'Hello-µ@ßöäüàá-UTF-8!!';
  // Invalid exactly at byte 12: a surrogate (6.3) or a code point past U+10FFFF (6.4).
  const surrogate = Buffer.concat([greek, bytes('\xed\xa0\x80'), bytes('edited')]);
  const [part1, part2, part3] = [greek, bytes('\xf4\x90\x80\x80'), bytes('edited')];
  const tooHigh = Buffer.concat([part1, part2, part3]);
  const failFast = (id: string, steps: Step[]): AutobahnCase => ({ id, steps, events: [['timeout', 'A']], close: failed(INVALID_PAYLOAD) });
  /** `bytes` cut at `a` and `b`. */
  const cut = (bytes: Buffer, a: number, b: number): [Buffer, Buffer, Buffer] => [
    bytes.subarray(0, a),
    bytes.subarray(a, b),
    bytes.subarray(b),
  ];
  /** Three pieces of a text message as its three frames. */
  const asFrames = (parts: Buffer[]) =>
    parts.map((part, i) => frame(i ? 0x0 : 0x1, part, { fin: i === parts.length - 1 })) as [Buffer, Buffer, Buffer];
  /** The fail-fast cases' pattern: a part, a wait (mark A if still open), a part, a wait (mark B), the rest. */
  const inThreeParts = (first: Buffer, second: Buffer, third: Buffer): Step[] => [
    { send: first },
    { pause: WAIT },
    { mark: 'A' },
    { send: second },
    { pause: WAIT },
    { mark: 'B' },
    { send: third },
  ];
  const whole = frame(0x1, tooHigh);
  const headerLength = whole.length - tooHigh.length;
  const cases: AutobahnCase[] = [
    { id: '6.1.1', steps: [send(frame(0x1, ''))], events: [echoed('text', '')], close: byClient() },
    {
      id: '6.1.2',
      steps: [send(frame(0x1, '', { fin: false }), frame(0x0, '', { fin: false }), frame(0x0, ''))],
      events: [echoed('text', '')],
      close: byClient(),
    },
    {
      id: '6.1.3',
      steps: [send(frame(0x1, '', { fin: false }), frame(0x0, 'middle frame payload', { fin: false }), frame(0x0, ''))],
      events: [echoed('text', 'middle frame payload')],
      close: byClient(),
    },
    { id: '6.2.1', steps: [send(frame(0x1, utf8(mixed)))], events: [echoed('text', utf8(mixed))], close: byClient() },
    {
      id: '6.2.2',
      steps: [send(frame(0x1, utf8('Hello-µ@ßöä'), { fin: false }), frame(0x0, utf8('üàá-UTF-8!!')))],
      events: [echoed('text', utf8(mixed))],
      close: byClient(),
    },
    { id: '6.2.3', steps: [send(messageFrames(0x1, utf8(mixed), 1))], events: [echoed('text', utf8(mixed))], close: byClient() },
    { id: '6.2.4', steps: [send(messageFrames(0x1, greek, 1))], events: [echoed('text', greek)], close: byClient() },
    { id: '6.3.1', steps: [send(frame(0x1, surrogate))], events: [], close: failed(INVALID_PAYLOAD) },
    { id: '6.3.2', steps: [send(messageFrames(0x1, surrogate, 1))], events: [], close: failed(INVALID_PAYLOAD) },
    failFast('6.4.1', inThreeParts(...asFrames([part1, part2, part3]))),
    failFast('6.4.2', inThreeParts(...asFrames(cut(tooHigh, 12, 13)))),
    // One frame, its bytes written in three parts.
    failFast('6.4.3', inThreeParts(...cut(whole, headerLength + 11, headerLength + 15))),
    failFast('6.4.4', inThreeParts(...cut(whole, headerLength + 12, headerLength + 13))),
  ];
  utf8Sequences().forEach(([, sequences], group) => {
    sequences.forEach(([isValid, payload], j) => {
      const id = `6.${group + 5}.${j + 1}`;
      cases.push(
        isValid
          ? { id, steps: [send(frame(0x1, payload))], events: [echoed('text', payload)], close: byClient() }
          : { id, steps: [send(frame(0x1, payload))], events: [], close: failed(INVALID_PAYLOAD) },
      );
    });
  });
  return cases;
}

function closeHandling(): AutobahnCase[] {
  const hello = 'Hello World!';
  const invalidReason = bytes(GREEK + '\xed\xa0\x80' + 'edited');
  const cases: AutobahnCase[] = [
    { id: '7.1.1', steps: [send(frame(0x1, hello))], events: [echoed('text', hello)], close: byClient() },
    { id: '7.1.2', steps: [send(closeFrame(NORMAL), frame(0x8))], events: [], close: clientClosed(NORMAL) },
    { id: '7.1.3', steps: [send(closeFrame(NORMAL), frame(0x9))], events: [], close: clientClosed(NORMAL) },
    { id: '7.1.4', steps: [send(closeFrame(NORMAL), frame(0x1, hello))], events: [], close: clientClosed(NORMAL) },
    {
      id: '7.1.5',
      steps: [send(frame(0x1, 'fragment1', { fin: false }), closeFrame(NORMAL), frame(0x0, 'fragment2'))],
      events: [],
      close: clientClosed(NORMAL),
    },
    {
      id: '7.1.6',
      steps: [send(frame(0x1, 'BAsd7&jh23', { payloadLength: 256 * 1024 }), frame(0x1, hello), closeFrame(NORMAL), frame(0x9))],
      events: [],
      close: clientClosed(NORMAL),
      informational: true,
    },
    { id: '7.3.1', steps: [send(frame(0x8))], events: [], close: clientClosed(NORMAL, 1005) },
    { id: '7.3.2', steps: [send(frame(0x8, 'a'))], events: [], close: clientClosed(PROTOCOL_ERROR) },
    { id: '7.3.3', steps: [send(closeFrame(NORMAL))], events: [], close: clientClosed(NORMAL) },
    { id: '7.3.4', steps: [send(closeFrame(NORMAL, utf8(hello)))], events: [], close: clientClosed(NORMAL) },
    { id: '7.3.5', steps: [send(closeFrame(NORMAL, '*'.repeat(123)))], events: [], close: clientClosed(NORMAL) },
    { id: '7.3.6', steps: [send(closeFrame(NORMAL, '*'.repeat(124)))], events: [], close: clientClosed(PROTOCOL_ERROR) },
    { id: '7.5.1', steps: [send(closeFrame(NORMAL, invalidReason))], events: [], close: clientClosed(PROTOCOL_ERROR, INVALID_PAYLOAD) },
  ];
  [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999].forEach((code, i) =>
    cases.push({ id: `7.7.${i + 1}`, steps: [send(closeFrame(code))], events: [], close: clientClosed(NORMAL, code) }),
  );
  [0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999].forEach((code, i) =>
    cases.push({ id: `7.9.${i + 1}`, steps: [send(closeFrame(code))], events: [], close: clientClosed(PROTOCOL_ERROR) }),
  );
  for (const [id, code] of [
    ['7.13.1', 5000],
    ['7.13.2', 65535],
  ] as const) {
    cases.push({ id, steps: [send(closeFrame(code))], events: [], close: clientClosed(NORMAL, code, PROTOCOL_ERROR), informational: true });
  }
  return cases;
}

function misc(): AutobahnCase[] {
  // 10.1.1 checks the client's own auto-fragmentation; for a server, the echo of the 64 KiB message.
  const payload = bytes('*'.repeat(65536));
  return [{ id: '10.1.1', steps: [send(frame(0x1, payload))], events: [echoed('text', payload)], close: byClient() }];
}

/** Every ported case, in the suite's order. */
export const AUTOBAHN_CASES: AutobahnCase[] = [
  ...framing(),
  ...pings(),
  ...reservedBits(),
  ...opcodes(),
  ...fragmentation(),
  ...utf8Handling(),
  ...closeHandling(),
  ...misc(),
];
