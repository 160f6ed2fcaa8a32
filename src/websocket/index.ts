// wirespeed/websocket: the runtime-agnostic pieces of WebSocket (RFC 6455): frames, close codes,
// the handshake's rules and the client-frame reader. Servers upgrade requests with
// `upgradeWebSocket` from wirespeed/node and wirespeed/deno.
export { CloseCode, closePayload, isValidWireCloseCode, MAX_CLOSE_REASON_BYTES, parseClosePayload } from './close.js';
export {
  COMPRESS_THRESHOLD,
  MessageTooBigError,
  negotiateDeflate,
  PERMESSAGE_DEFLATE,
  zlibDeflateCodec,
  type DeflateCodec,
  type DeflateParams,
  type ZlibLike,
} from './deflate.js';
export { WebSocketError, type WebSocketErrorCode } from './errors.js';
export { FrameDecoder, type FrameDecoderOptions, type FrameSink } from './frame-decoder.js';
export { encodeFrame, frameHeader, Opcode } from './frame.js';
export {
  acceptValue,
  checkHandshake,
  hasToken,
  offeredProtocols,
  WEBSOCKET_VERSION,
  WebSocketHandshakeError,
  type Handshake,
} from './handshake.js';
export { MessageReader, type MessageLimits, type MessageSink } from './message-reader.js';
