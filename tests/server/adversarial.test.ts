// The replayable adversarial cases (fixtures/adversarial.json) against every adapter: each
// malformed request, whole and then one byte at a time, gets its status once and a closed
// connection. A regression in any framing rule shows here at once.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { raw, statuses } from './clients.js';
import { launchDeno, launchNode } from './launchers.js';
import { useServer, type Launcher } from './suite.js';

interface AdversarialCase {
  name: string;
  request: string;
  status: number;
  why: string;
}

const { cases } = JSON.parse(readFileSync(new URL('./fixtures/adversarial.json', import.meta.url), 'utf8')) as { cases: AdversarialCase[] };

function replay(adapter: string, launch: Launcher): void {
  describe(`${adapter}: adversarial requests (fixtures/adversarial.json)`, () => {
    const server = useServer(launch);
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
      const whole = await raw(server.port, [c.request]);
      expect({ statuses: statuses(whole.text), closed: whole.closed }, c.why).toEqual({ statuses: [c.status], closed: true });
      const bytes = [...c.request];
      const split = await raw(server.port, bytes, { gap: 0, wait: 2000 });
      expect({ statuses: statuses(split.text), closed: split.closed }, `${c.why}, one byte at a time`).toEqual({
        statuses: [c.status],
        closed: true,
      });
    });
  });
}

replay('node', launchNode);
replay('deno', launchDeno);
