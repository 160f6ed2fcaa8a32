export { HttpParseError, type HttpParseErrorCode } from './errors.js';
export { MessageHead, RequestHead, ResponseHead, type BodyKind, type HeaderList } from './head.js';
export { latin1, latin1Bytes } from '../latin1.js';
export type { ParserOptions } from './options.js';
export { parseRequest, parseResponse, type ParsedRequest, type ParsedResponse } from './parse.js';
export { MessageParser, RequestParser, ResponseParser, type MessageHandler, type ResponseParserOptions } from './parser.js';
export { STATUS_REASONS, statusForParseError } from './status.js';
export {
  CHUNK_END,
  chunkHeader,
  dateHeaderLine,
  HttpWriteError,
  LAST_CHUNK,
  lastChunk,
  statusLine,
  writeResponseHead,
  type ResponseHeadInit,
} from './writer.js';
export { WasmTrapError } from '../wasm/module.js';
