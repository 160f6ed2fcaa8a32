// SETTINGS (RFC 9113 §6.5): a list of (id, value) pairs, or an empty ACK.
import { ConnectionError } from '../errors.js';
import {
  DEFAULT_MAX_FRAME_SIZE,
  Flag,
  frame,
  FrameType,
  MAX_MAX_FRAME_SIZE,
  MAX_WINDOW,
  readUint32,
  writeUint32,
  type FrameHeader,
} from './header.js';

/** SETTINGS parameters (§6.5.2, RFC 8441 §3), by name. */
export const SettingId = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
  /** RFC 8441 §3: the peer accepts extended CONNECT (:protocol), e.g. WebSocket over HTTP/2. */
  ENABLE_CONNECT_PROTOCOL: 0x8,
} as const;

/** One SETTINGS parameter. */
export type Setting = [id: number, value: number];

/** A SETTINGS frame (§6.5), or its ACK. */
export interface SettingsFrame {
  type: 'settings';
  ack: boolean;
  /** In the order sent: they are applied in order (§6.5.3). Unknown ids are dropped (§6.5.2). */
  settings: Setting[];
}

/** Reads a SETTINGS frame; throws on values out of range. */
export function parseSettings(header: FrameHeader, payload: Uint8Array): SettingsFrame {
  // §6.5: SETTINGS on a stream is PROTOCOL_ERROR; an ACK with a payload, or a length that is not a
  // multiple of 6, is FRAME_SIZE_ERROR (connection errors all).
  if (header.streamId !== 0) throw new ConnectionError('PROTOCOL_ERROR', 'SETTINGS on a stream');
  const ack = (header.flags & Flag.ACK) !== 0;
  if (ack && payload.length !== 0) throw new ConnectionError('FRAME_SIZE_ERROR', 'SETTINGS ACK with a payload');
  if (payload.length % 6 !== 0) throw new ConnectionError('FRAME_SIZE_ERROR', `SETTINGS of ${payload.length} bytes`);
  const settings: Setting[] = [];
  for (let at = 0; at < payload.length; at += 6) {
    const id = (payload[at] << 8) | payload[at + 1];
    const value = readUint32(payload, at + 2);
    // §6.5.2: value checks.
    if (id === SettingId.ENABLE_PUSH && value > 1) throw new ConnectionError('PROTOCOL_ERROR', `SETTINGS_ENABLE_PUSH ${value}`);
    if (id === SettingId.INITIAL_WINDOW_SIZE && value > MAX_WINDOW)
      throw new ConnectionError('FLOW_CONTROL_ERROR', `SETTINGS_INITIAL_WINDOW_SIZE ${value}`);
    if (id === SettingId.MAX_FRAME_SIZE && (value < DEFAULT_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE))
      throw new ConnectionError('PROTOCOL_ERROR', `SETTINGS_MAX_FRAME_SIZE ${value}`);
    // RFC 8441 §3: 0 or 1.
    if (id === SettingId.ENABLE_CONNECT_PROTOCOL && value > 1)
      throw new ConnectionError('PROTOCOL_ERROR', `SETTINGS_ENABLE_CONNECT_PROTOCOL ${value}`);
    if ((id >= SettingId.HEADER_TABLE_SIZE && id <= SettingId.MAX_HEADER_LIST_SIZE) || id === SettingId.ENABLE_CONNECT_PROTOCOL)
      settings.push([id, value]);
  }
  return { type: 'settings', ack, settings };
}

/** A SETTINGS payload for `settings`. */
export function settingsPayload(settings: Setting[]): Uint8Array {
  const payload = new Uint8Array(settings.length * 6);
  settings.forEach(([id, value], i) => {
    payload[i * 6] = id >>> 8;
    payload[i * 6 + 1] = id & 0xff;
    writeUint32(payload, i * 6 + 2, value);
  });
  return payload;
}

/** A whole SETTINGS frame. */
export function encodeSettings(settings: Setting[]): Uint8Array {
  return frame(FrameType.SETTINGS, 0, 0, settingsPayload(settings));
}

/** The SETTINGS ACK frame. */
export const SETTINGS_ACK = frame(FrameType.SETTINGS, Flag.ACK, 0);
