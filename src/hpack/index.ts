export { HpackDecoder, type HpackDecoderOptions } from './decoder.js';
export { HpackEncoder, type HpackEncoderOptions } from './encoder.js';
export { HpackError, type HpackErrorCode } from './errors.js';
export type { HpackField } from './codec.js';
