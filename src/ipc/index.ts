export { IpcChannel, PROTOCOL_VERSION, type ChannelOptions, type RequestOptions, type StreamOptions } from './channel.js';
export { jsonCodec, structuredCloneCodec, type Codec, type CodecName } from './codec.js';
export { IpcError, type IpcErrorCode } from './errors.js';
export type { HandlerContext, IpcMethods, MethodHandler, MethodItem, MethodParams, MethodResult } from './methods.js';
export { DEFAULT_MAX_FRAME, encodeFrame, IPC_FRAME_HEADER_SIZE, FrameDecoder, IpcFrameType, type Frame } from './frame.js';
export type { Receiver, IpcTransport } from './transport.js';
export { portTransport, type PortLike } from './transports/port.js';
export { streamTransport } from './transports/stream.js';
export { transfer, type TransferList } from './transfer.js';
