// Generated and mutated requests (the differential corpus of tests/http1, sent to the test app's
// routes) over real sockets to each adapter: written in random pieces with random pauses, one or
// two per connection, then the client half-closes. Whatever the bytes, every connection gets
// whole responses with known statuses and is closed within a bound, each request of an input left
// whole is answered (up to a response that closes the connection), /echo gives back the body it
// was sent, and the server serves on. It
// found a connection left open for ever: a body cut by the client's end while a stream was being
// written.
import { describe, expect, it } from 'vitest';
import { chunksOf, generate, rng } from '../http1/corpus.js';
import { exchangeInPieces, responsesOf, statuses, type WireResponse } from './clients.js';
import { launchDeno, launchNode } from './launchers.js';
import { useServer, type Launcher } from './suite.js';

/** Connections per adapter, how many run at once, and how long one may take after its last byte. */
const CONNECTIONS = 1500;
const AT_ONCE = 20;
const CLOSE_WITHIN_MS = 3000;
/**
 * The app's routes that read a body whole, stream it, ignore it, stream an answer (3 parts: a
 * query the corpus adds could not make it endless, as `parts=3?x` would), answer late or throw.
 */
const PATHS = ['/echo', '/count-body', '/no-read', '/stream', '/slow?ms=5', '/throw', '/hello', '/missing'];
/** What the app and the server answer: the routes' own, and the server's for bad input. */
const KNOWN_STATUSES = new Set([200, 400, 404, 405, 411, 413, 414, 431, 500, 501, 505]);
const STATUS_LINE = /^HTTP\/1\.1 \d{3} /;

interface Outcome {
  input: string;
  text: string;
  closed: boolean;
}

/** How many of the requests should be answered: all of them, unless a response says it closes first. */
function owedAnswers(responses: WireResponse[], requests: number): number {
  const closing = responses.findIndex(({ head }) => /\r\nconnection: close(\r\n|$)/i.test(head));
  return closing < 0 ? requests : Math.min(requests, closing + 1);
}

/** Sends `input` in the given pieces, half-closes, and collects what comes back until the server closes. */
async function exchange(port: number, input: string, splits: number[], pause: () => number): Promise<Outcome> {
  return { input, ...(await exchangeInPieces(port, chunksOf(Buffer.from(input, 'latin1'), splits), pause, CLOSE_WITHIN_MS)) };
}

function fuzz(adapter: string, launch: Launcher): void {
  describe(`${adapter}: generated and mutated requests over real sockets`, () => {
    const server = useServer(launch);
    it(`answers ${CONNECTIONS} connections with whole responses of known statuses, closes each, and serves on`, async () => {
      const random = rng(adapter === 'node' ? 1 : 2);
      const cases = generate(random, CONNECTIONS, { paths: PATHS, host: 'localhost' });
      const outcomes: Outcome[] = [];
      const unanswered: { input: string; got: string }[] = [];
      const misechoed: { input: string; expected: string; got: string }[] = [];
      let echoed = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          while (next < cases.length) {
            const { input, splits, mutated, requests } = cases[next++]!;
            const outcome = await exchange(server.port, input, splits, () => (random() < 0.5 ? 0 : 2));
            outcomes.push(outcome);
            if (mutated) continue;
            const responses = responsesOf(
              outcome.text,
              requests.map((request) => request.method),
            );
            // Found so: a request pipelined behind one still being answered was dropped at the end.
            if (responses.length !== owedAnswers(responses, requests.length)) unanswered.push({ input, got: outcome.text.slice(0, 300) });
            // /echo answers with the body it read, whatever pieces it came in (none on GET and HEAD).
            responses.forEach(({ status, body }, i) => {
              const { method, target, body: sent } = requests[i]!;
              if (target.split('?')[0] !== '/echo' || status !== 200 || method === 'HEAD') return;
              echoed++;
              const expected = method === 'GET' ? '' : sent;
              if (body !== expected) misechoed.push({ input, expected, got: body });
            });
          }
        }),
      );
      expect(unanswered, 'requests not answered').toEqual([]);
      expect(misechoed, 'bodies echoed wrong').toEqual([]);
      expect(echoed).toBeGreaterThan(CONNECTIONS / 50);
      const open = outcomes.filter((o) => !o.closed);
      expect(
        open.map((o) => ({ input: o.input, got: o.text })),
        'left open',
      ).toEqual([]);
      const broken = outcomes.filter((o) => o.text !== '' && !STATUS_LINE.test(o.text));
      expect(
        broken.map((o) => ({ input: o.input, got: o.text.slice(0, 200) })),
        'not a response',
      ).toEqual([]);
      const tally = new Map<number, number>();
      for (const o of outcomes) for (const status of statuses(o.text)) tally.set(status, (tally.get(status) ?? 0) + 1);
      expect(
        [...tally.keys()].filter((status) => !KNOWN_STATUSES.has(status)),
        'unknown statuses',
      ).toEqual([]);
      // The corpus reaches both the routes and the server's refusals.
      expect(tally.get(200)).toBeGreaterThan(CONNECTIONS / 5);
      expect(tally.get(400)).toBeGreaterThan(CONNECTIONS / 5);
      expect(await (await fetch(`${server.url}/hello`)).text()).toBe('Hello World!');
    });
  });
}

fuzz('node', launchNode);
fuzz('deno', launchDeno);
