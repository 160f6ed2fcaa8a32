// The types of a channel's contract: what each side serves, as an interface of methods, so
// `handle`, `request` and `stream` check their params and results (as birpc and comlink do):
//
//   interface Worker { resize(p: { width: number }): Promise<Image>; rows(q: Query): AsyncIterable<Row> }
//   const channel = new IpcChannel<{}, Worker>(transport);
//   const image = await channel.request('resize', { width: 640 });   // Image
//
// Without a contract every method takes any params and answers `unknown`.

/** What one side serves: method name → a function of its params (any, for an untyped channel), returning what the caller gets. */
export type IpcMethods = Record<string, (params: any) => unknown>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The params of a contract method. */
export type MethodParams<F> = F extends (params: infer P) => unknown ? P : never;

/** What a request answers: the method's result, awaited. */
export type MethodResult<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

/** The items a streamed method yields (from an iterable, async iterable or ReadableStream). */
export type MethodItem<F> = F extends (...args: never[]) => infer R
  ? Awaited<R> extends Iterable<infer T> | AsyncIterable<infer T> | ReadableStream<infer T>
    ? T
    : unknown
  : never;

/** What a handler gets besides the params. */
export interface HandlerContext {
  /** Aborted when the caller gives up (timeout, cancel) or the channel closes. */
  readonly signal: AbortSignal;
}

/** A handler of contract method F: the result, a promise of it, or for a stream its iterable. */
export type MethodHandler<F> = (params: MethodParams<F>, context: HandlerContext) => MethodResult<F> | Promise<MethodResult<F>>;
