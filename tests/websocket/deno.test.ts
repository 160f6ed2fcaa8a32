// The WebSocket suite on Deno: the server in a Deno process.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { launchDeno } from '../server/launchers.js';
import { useServer } from '../server/suite.js';
import { webSocketSuite } from './suite.js';

webSocketSuite('deno', launchDeno);

describe('deno: Deno.upgradeWebSocket takes the server’s requests (an app moving from Deno.serve)', () => {
  const server = useServer(launchDeno);

  async function echo(path: string, protocols?: string[]): Promise<{ reply: string; protocol: string }> {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${path}`, protocols);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const reply = new Promise<string>((resolve) => ws.once('message', (data: Buffer) => resolve(data.toString())));
    ws.send('hi');
    const result = { reply: await reply, protocol: ws.protocol };
    ws.close();
    return result;
  }

  it('upgrades through Deno.upgradeWebSocket itself, with a subprotocol', async () => {
    expect(await echo('/ws/deno/native', ['chat'])).toEqual({ reply: 'Deno.upgradeWebSocket: hi', protocol: 'chat' });
  });

  it('upgrades through hono/deno’s upgradeWebSocket helper, unchanged', async () => {
    expect(await echo('/ws/deno/hono', ['v1', 'v2'])).toEqual({ reply: 'hono/deno: hi (v1)', protocol: 'v1' });
  });
});
