// One frame's payload to a typed frame, by type. Unknown types are returned as 'unknown' for the
// connection to ignore (§5.5); PUSH_PROMISE from a client is refused (§8.4).
import { parseContinuation, type ContinuationFrame } from './continuation.js';
import { parseData, type DataFrame } from './data.js';
import { parseGoaway, type GoawayFrame } from './goaway.js';
import { FrameType, type FrameHeader } from './header.js';
import { parseHeaders, type HeadersFrame } from './headers.js';
import { parsePing, type PingFrame } from './ping.js';
import { parsePriority, type PriorityFrame } from './priority.js';
import { rejectPushPromise } from './push-promise.js';
import { parseRstStream, type RstStreamFrame } from './rst-stream.js';
import { parseSettings, type SettingsFrame } from './settings.js';
import { parseWindowUpdate, type WindowUpdateFrame } from './window-update.js';

/** A frame of a type this implementation does not know (ignored, §5.5). */
export interface UnknownFrame {
  type: 'unknown';
  frameType: number;
  streamId: number;
}

/** Any frame, parsed. */
export type Frame =
  | DataFrame
  | HeadersFrame
  | PriorityFrame
  | RstStreamFrame
  | SettingsFrame
  | PingFrame
  | GoawayFrame
  | WindowUpdateFrame
  | ContinuationFrame
  | UnknownFrame;

/** Throws ConnectionError or StreamError for a frame the RFC says is an error. */
export function parseFrame(header: FrameHeader, payload: Uint8Array): Frame {
  switch (header.type) {
    case FrameType.DATA:
      return parseData(header, payload);
    case FrameType.HEADERS:
      return parseHeaders(header, payload);
    case FrameType.PRIORITY:
      return parsePriority(header, payload);
    case FrameType.RST_STREAM:
      return parseRstStream(header, payload);
    case FrameType.SETTINGS:
      return parseSettings(header, payload);
    case FrameType.PUSH_PROMISE:
      return rejectPushPromise();
    case FrameType.PING:
      return parsePing(header, payload);
    case FrameType.GOAWAY:
      return parseGoaway(header, payload);
    case FrameType.WINDOW_UPDATE:
      return parseWindowUpdate(header, payload);
    case FrameType.CONTINUATION:
      return parseContinuation(header, payload);
    default:
      return { type: 'unknown', frameType: header.type, streamId: header.streamId };
  }
}
