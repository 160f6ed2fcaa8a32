// The `Request` serve() installs as the global one (unless `overrideGlobalObjects: false`): the
// runtime's own, which takes the server's lazy requests as input too. A runtime's Request
// constructor reads the private state of a Request it is given, which a lazy request does not
// have: `new Request(request, init)` threw (Node: "Cannot read properties of undefined (reading
// 'window')"; Deno: "Argument 1 is not of type Request"), where @hono/node-server's requests and
// the runtime's own are taken. Every other use is the runtime's class, untouched.
import { installServerFetch } from './global-fetch.js';
import { installLightResponse } from './light-response.js';
import { NATIVE_REQUEST, NativeRequest, runtimeInput } from './request.js';

class ServerRequestClass extends NativeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(runtimeInput(input, init), init);
  }

  // Requests the runtime makes (and those made before the global was replaced) are Requests too.
  // A subclass (`class MyRequest extends Request`) inherits this method and keeps the ordinary
  // check: its own instances only.
  static override [Symbol.hasInstance](this: unknown, value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(this === ServerRequestClass ? NativeRequest : this, value);
  }
}

Object.defineProperty(ServerRequestClass, 'name', { value: 'Request' });
Object.defineProperty(ServerRequestClass, 'length', { value: NativeRequest.length }); // WebIDL: the input required, 1
Object.defineProperty(ServerRequestClass, NATIVE_REQUEST, { value: NativeRequest });

/** The runtime's Request, taking the server's requests as input too; typed as Request. */
export const ServerRequest: typeof Request = ServerRequestClass;

/** Replaces the global Request with ServerRequest (once; idempotent). */
export function installServerRequest(): void {
  if (globalThis.Request !== ServerRequest) globalThis.Request = ServerRequest;
}

/** What `overrideGlobalObjects` (the default) installs: LightResponse, ServerRequest and ServerFetch. */
export function installGlobalObjects(): void {
  installLightResponse();
  installServerRequest();
  installServerFetch();
}
