// Connection settings (RFC 9113 §6.5.2): the values each side announced, applied in the order a
// SETTINGS frame lists them (§6.5.3). The peer's initial window size moves every open stream's send
// window by the difference (§6.9.2), so applying reports that difference.
import { DEFAULT_MAX_FRAME_SIZE } from './frame/header.js';
import { SettingId, type Setting } from './frame/settings.js';

/** One side's SETTINGS values (§6.5.2). */
export interface Settings {
  headerTableSize: number;
  enablePush: boolean;
  /** Infinity: no limit announced. */
  maxConcurrentStreams: number;
  initialWindowSize: number;
  maxFrameSize: number;
  /** Infinity: no limit announced. */
  maxHeaderListSize: number;
  /** RFC 8441 §3: extended CONNECT is accepted. */
  enableConnectProtocol: boolean;
}

/** SETTINGS_HEADER_TABLE_SIZE until a peer says otherwise (§6.5.2). */
export const DEFAULT_HEADER_TABLE_SIZE = 4096;
/** SETTINGS_INITIAL_WINDOW_SIZE until a peer says otherwise, and every connection's first window (§6.9.2). */
export const DEFAULT_INITIAL_WINDOW_SIZE = 65_535;

/** What a peer is assumed to have until its first SETTINGS arrives (§6.5.2). */
export const INITIAL_SETTINGS: Readonly<Settings> = Object.freeze({
  headerTableSize: DEFAULT_HEADER_TABLE_SIZE,
  enablePush: true,
  maxConcurrentStreams: Infinity,
  initialWindowSize: DEFAULT_INITIAL_WINDOW_SIZE,
  maxFrameSize: DEFAULT_MAX_FRAME_SIZE,
  maxHeaderListSize: Infinity,
  enableConnectProtocol: false,
});

/** Applies `list` (already range-checked by the frame parser) in order; returns the window delta. */
export function applySettings(settings: Settings, list: Setting[]): { windowDelta: number } {
  const before = settings.initialWindowSize;
  for (const [id, value] of list) {
    switch (id) {
      case SettingId.HEADER_TABLE_SIZE:
        settings.headerTableSize = value;
        break;
      case SettingId.ENABLE_PUSH:
        settings.enablePush = value === 1;
        break;
      case SettingId.MAX_CONCURRENT_STREAMS:
        settings.maxConcurrentStreams = value;
        break;
      case SettingId.INITIAL_WINDOW_SIZE:
        settings.initialWindowSize = value;
        break;
      case SettingId.MAX_FRAME_SIZE:
        settings.maxFrameSize = value;
        break;
      case SettingId.MAX_HEADER_LIST_SIZE:
        settings.maxHeaderListSize = value;
        break;
      case SettingId.ENABLE_CONNECT_PROTOCOL:
        settings.enableConnectProtocol = value === 1;
        break;
    }
  }
  return { windowDelta: settings.initialWindowSize - before };
}

/** The SETTINGS a side sends to announce `settings`: only what differs from the initial values. */
export function settingsToSend(settings: Settings): Setting[] {
  const list: Setting[] = [];
  const add = (id: number, value: number, initial: number) => {
    if (value !== initial && Number.isFinite(value)) list.push([id, value]);
  };
  add(SettingId.HEADER_TABLE_SIZE, settings.headerTableSize, INITIAL_SETTINGS.headerTableSize);
  add(SettingId.ENABLE_PUSH, settings.enablePush ? 1 : 0, 1);
  add(SettingId.MAX_CONCURRENT_STREAMS, settings.maxConcurrentStreams, INITIAL_SETTINGS.maxConcurrentStreams);
  add(SettingId.INITIAL_WINDOW_SIZE, settings.initialWindowSize, INITIAL_SETTINGS.initialWindowSize);
  add(SettingId.MAX_FRAME_SIZE, settings.maxFrameSize, INITIAL_SETTINGS.maxFrameSize);
  add(SettingId.MAX_HEADER_LIST_SIZE, settings.maxHeaderListSize, INITIAL_SETTINGS.maxHeaderListSize);
  add(SettingId.ENABLE_CONNECT_PROTOCOL, settings.enableConnectProtocol ? 1 : 0, 0);
  return list;
}
