// The stream state machine (RFC 9113 §5.1), flow-control windows (§5.2, §6.9) and connection
// settings (§6.5), without I/O.
import { describe, expect, it } from 'vitest';
import { ConnectionError, StreamError } from '../../src/http2/errors.js';
import { ReceiveWindow, SendWindow } from '../../src/http2/flow-control.js';
import { SettingId } from '../../src/http2/frame/settings.js';
import { applySettings, INITIAL_SETTINGS, settingsToSend } from '../../src/http2/settings.js';
import { StreamStateMachine } from '../../src/http2/stream-state.js';

function thrown(fn: () => unknown): [string, string] | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof StreamError) return ['stream', error.code];
    if (error instanceof ConnectionError) return ['connection', error.code];
    throw error;
  }
}

describe('stream states (§5.1)', () => {
  it('a request with a body: idle → open → half-closed (remote) → closed', () => {
    const s = new StreamStateMachine(1);
    expect(s.receiveHeaders(false)).toBe('request');
    expect(s.state).toBe('open');
    expect(s.receiveData(false)).toBe('data');
    expect(s.receiveData(true)).toBe('data');
    expect(s.state).toBe('half-closed (remote)');
    expect(s.canSend).toBe(true);
    s.sendEnd();
    expect([s.state, s.closedBy]).toEqual(['closed', 'end-stream']);
  });

  it('a GET: HEADERS with END_STREAM half-closes at once; a response sent early half-closes locally', () => {
    const get = new StreamStateMachine(3);
    get.receiveHeaders(true);
    expect(get.state).toBe('half-closed (remote)');
    const upload = new StreamStateMachine(5);
    upload.receiveHeaders(false);
    upload.sendEnd();
    expect([upload.state, upload.canSend]).toEqual(['half-closed (local)', false]);
    expect(upload.receiveData(true)).toBe('data');
    expect(upload.state).toBe('closed');
  });

  it('trailers must end the stream (§8.1)', () => {
    const s = new StreamStateMachine(1);
    s.receiveHeaders(false);
    expect(thrown(() => s.receiveHeaders(false))).toEqual(['stream', 'PROTOCOL_ERROR']);
    const t = new StreamStateMachine(3);
    t.receiveHeaders(false);
    expect(t.receiveHeaders(true)).toBe('trailers');
    expect(t.state).toBe('half-closed (remote)');
  });

  it('frames in the wrong state get the error the RFC names', () => {
    expect(thrown(() => new StreamStateMachine(1).receiveData(false))).toEqual(['connection', 'PROTOCOL_ERROR']);
    expect(thrown(() => new StreamStateMachine(1).receiveReset())).toEqual(['connection', 'PROTOCOL_ERROR']);
    expect(thrown(() => new StreamStateMachine(1).receiveWindowUpdate())).toEqual(['connection', 'PROTOCOL_ERROR']);
    const halfClosed = new StreamStateMachine(1);
    halfClosed.receiveHeaders(true);
    expect(thrown(() => halfClosed.receiveData(false))).toEqual(['stream', 'STREAM_CLOSED']);
    expect(thrown(() => halfClosed.receiveHeaders(true))).toEqual(['stream', 'STREAM_CLOSED']);
    halfClosed.receiveWindowUpdate(); // allowed
    const ended = new StreamStateMachine(3);
    ended.receiveHeaders(true);
    ended.sendEnd();
    expect(thrown(() => ended.receiveData(false))).toEqual(['connection', 'STREAM_CLOSED']);
    const resetByPeer = new StreamStateMachine(5);
    resetByPeer.receiveHeaders(false);
    resetByPeer.receiveReset();
    expect(thrown(() => resetByPeer.receiveData(false))).toEqual(['stream', 'STREAM_CLOSED']);
  });

  it('frames that crossed a reset this side sent are ignored', () => {
    const s = new StreamStateMachine(7);
    s.receiveHeaders(false);
    s.sendReset();
    expect(s.receiveData(false)).toBe('ignore');
    expect(s.receiveHeaders(true)).toBe('ignore');
    s.receiveReset(); // a reset crossing ours
    expect(s.closedBy).toBe('reset-sent');
  });
});

describe('flow control (§6.9)', () => {
  it('a receive window refuses DATA beyond it: a stream error on a stream, a connection error on 0', () => {
    const stream = new ReceiveWindow(1, 100);
    stream.receive(100);
    expect(thrown(() => stream.receive(1))).toEqual(['stream', 'FLOW_CONTROL_ERROR']);
    const connection = new ReceiveWindow(0, 10);
    expect(thrown(() => connection.receive(11))).toEqual(['connection', 'FLOW_CONTROL_ERROR']);
  });

  it('releases credit in WINDOW_UPDATEs of at least half the window', () => {
    const window = new ReceiveWindow(1, 65_535);
    window.receive(20_000);
    expect(window.release(20_000)).toBe(0);
    window.receive(20_000);
    expect(window.release(20_000)).toBe(40_000);
    // The window is back: a full window more is accepted, one byte more is not.
    window.receive(65_535);
    expect(thrown(() => window.receive(1))).toEqual(['stream', 'FLOW_CONTROL_ERROR']);
  });

  it('a send window never passes 2^31-1 and may go negative with a smaller initial size (§6.9.2)', () => {
    const window = new SendWindow(3, 65_535);
    window.consume(60_000);
    expect(window.available).toBe(5_535);
    window.adjust(-10_000);
    expect([window.size, window.available]).toEqual([-4_465, 0]);
    window.increase(10_000);
    expect(window.available).toBe(5_535);
    expect(thrown(() => window.increase(2 ** 31 - 1))).toEqual(['stream', 'FLOW_CONTROL_ERROR']);
    expect(thrown(() => new SendWindow(0, 1).increase(2 ** 31 - 1))).toEqual(['connection', 'FLOW_CONTROL_ERROR']);
    expect(thrown(() => new SendWindow(5, 1).adjust(2 ** 31 - 1))).toEqual(['connection', 'FLOW_CONTROL_ERROR']);
  });
});

describe('settings (§6.5.2, §6.5.3)', () => {
  it('applies a SETTINGS list in order and reports the initial-window change', () => {
    const peer = { ...INITIAL_SETTINGS };
    const { windowDelta } = applySettings(peer, [
      [SettingId.INITIAL_WINDOW_SIZE, 100_000],
      [SettingId.MAX_CONCURRENT_STREAMS, 10],
      [SettingId.INITIAL_WINDOW_SIZE, 30_000],
    ]);
    expect([peer.initialWindowSize, peer.maxConcurrentStreams, windowDelta]).toEqual([30_000, 10, 30_000 - 65_535]);
    const ours = { ...INITIAL_SETTINGS, enablePush: false, maxConcurrentStreams: 100, initialWindowSize: 1 << 20 };
    expect(settingsToSend(ours)).toEqual([
      [SettingId.ENABLE_PUSH, 0],
      [SettingId.MAX_CONCURRENT_STREAMS, 100],
      [SettingId.INITIAL_WINDOW_SIZE, 1 << 20],
    ]);
  });
});
