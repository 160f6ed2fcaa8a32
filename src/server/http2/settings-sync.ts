// Both sides' SETTINGS on a server connection (RFC 9113 §6.5), as h2's proto/settings.rs: ours
// sent in the preface and waiting for the client's ACK, the client's applied as they come. It
// tells the connection what changed; the connection applies it to streams and codecs.
import { ConnectionError } from '../../http2/errors.js';
import { Flag, FrameType } from '../../http2/frame/header.js';
import { settingsPayload, type Setting } from '../../http2/frame/settings.js';
import type { ResolvedHttp2Options } from '../../http2/options.js';
import { applySettings, INITIAL_SETTINGS, settingsToSend, type Settings } from '../../http2/settings.js';
import type { FrameWriter } from './frame-writer.js';

/** Both sides' SETTINGS on one connection. */
export class SettingsSync {
  /** The client's settings, as they change. */
  readonly peer: Settings = { ...INITIAL_SETTINGS };
  /** The client preface's SETTINGS arrived (§3.4). */
  received = false;
  private outstanding = 0;
  private sentAt = 0;

  constructor(
    private readonly writer: FrameWriter,
    private readonly options: ResolvedHttp2Options,
  ) {}

  /** Sends ours (the server preface, §3.4). */
  sendOurs(now: number): void {
    this.writer.frame(FrameType.SETTINGS, 0, 0, settingsPayload(ourSettings(this.options)));
    this.outstanding++;
    this.sentAt = now;
  }

  /** Ours were not acknowledged within settingsTimeout (§6.5.3). */
  overdue(now: number): boolean {
    return this.outstanding > 0 && now > this.sentAt + this.options.settingsTimeout;
  }

  /** §3.4: the client preface ends with SETTINGS; `isSettings` says whether this first frame is one. */
  first(isSettings: boolean): void {
    if (!isSettings) throw new ConnectionError('PROTOCOL_ERROR', 'the client preface must end with SETTINGS (§3.4)');
    this.received = true;
  }

  /** Our SETTINGS were acknowledged. Returns true when the last outstanding ones took effect. */
  acknowledged(): boolean {
    return this.outstanding > 0 && --this.outstanding === 0;
  }

  /** Applies the client's SETTINGS and acknowledges them; returns what the connection must adjust. */
  apply(list: Setting[]): { windowDelta: number; tableSizeChanged: boolean } {
    const tableSize = this.peer.headerTableSize;
    const { windowDelta } = applySettings(this.peer, list);
    this.writer.frame(FrameType.SETTINGS, Flag.ACK, 0);
    return { windowDelta, tableSizeChanged: this.peer.headerTableSize !== tableSize };
  }
}

/** Our SETTINGS: what differs from the RFC's initial values. */
function ourSettings(o: ResolvedHttp2Options): Setting[] {
  const { maxConcurrentStreams, initialWindowSize, maxFrameSize, headerTableSize, maxHeaderListSize } = o;
  // SETTINGS_ENABLE_PUSH is left unsaid: it limits what a server may send, and a server that
  // never pushes has nothing to announce (§6.5.2 lets it omit the setting).
  return settingsToSend({
    enablePush: INITIAL_SETTINGS.enablePush,
    maxConcurrentStreams,
    initialWindowSize,
    maxFrameSize,
    headerTableSize,
    maxHeaderListSize,
    // RFC 8441: WebSocket over HTTP/2 (a handler that does not upgrade such a request answers it).
    enableConnectProtocol: true,
  });
}
