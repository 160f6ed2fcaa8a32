// HTTP/2 framing (RFC 9113 §4, §6): one file per frame type, as hyperium/h2's src/frame/.
export { encodeData, type DataFrame } from './data.js';
export { encodeGoaway, type GoawayFrame } from './goaway.js';
export {
  DEFAULT_MAX_FRAME_SIZE,
  Flag,
  frame,
  FRAME_HEADER_SIZE,
  FrameType,
  MAX_MAX_FRAME_SIZE,
  MAX_WINDOW,
  readFrameHeader,
  type FrameHeader,
} from './header.js';
export { encodeHeaders, type HeadersFrame } from './headers.js';
export { parseFrame, type Frame, type UnknownFrame } from './parse.js';
export { encodePing, type PingFrame } from './ping.js';
export type { PriorityFrame } from './priority.js';
export { CLIENT_PREFACE, FrameReader, type RawFrame } from './reader.js';
export { encodeRstStream, type RstStreamFrame } from './rst-stream.js';
export { encodeSettings, SETTINGS_ACK, SettingId, type Setting, type SettingsFrame } from './settings.js';
export { encodeWindowUpdate, type WindowUpdateFrame } from './window-update.js';
export type { ContinuationFrame } from './continuation.js';
