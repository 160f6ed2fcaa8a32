// wirespeed/http2: the runtime-agnostic pieces of HTTP/2 (RFC 9113): frames, the stream state
// machine, flow-control windows, settings and request-field rules. The server connection is
// reached through `serve({ http2: true })` in wirespeed/node and wirespeed/deno.
export * from './frame/index.js';
export { ConnectionError, ErrorCode, errorCodeName, StreamError, type ErrorCodeName } from './errors.js';
export { ReceiveWindow, SendWindow } from './flow-control.js';
export type { Http2Options } from './options.js';
export { requestFields, trailerFields, type FieldList, type RequestFields } from './request-fields.js';
export { applySettings, INITIAL_SETTINGS, settingsToSend, type Settings } from './settings.js';
export { StreamStateMachine, type StreamState } from './stream-state.js';
