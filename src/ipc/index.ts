export { IpcChannel, PROTOCOL_VERSION, type ChannelOptions, type RequestOptions, type StreamOptions } from './channel.js';
export { createCodec, jsonCodec, msgpackCodec, msgpackrRecordsCodec, type Codec, type CodecName } from './codec.js';
export { IpcError, type IpcErrorCode } from './errors.js';
export { DEFAULT_MAX_FRAME, encodeFrame, FRAME_HEADER, FrameDecoder, FrameType, type Frame } from './frame.js';
export type { Receiver, Transport } from './transport.js';
export { portTransport, type PortLike } from './transports/port.js';
export { streamTransport } from './transports/stream.js';
