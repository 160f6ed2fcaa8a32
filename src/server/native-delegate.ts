// The lazy Request and the light Response answer their hot members themselves and hand every
// other member of the web class to a real instance, made on first use. They pass `instanceof`.

/**
 * A real Request or Response standing in for one whose body was read already: made by `make` with
 * a stream that is then disturbed and locked, so it says `bodyUsed` and refuses reads and copies
 * as the standard does (made with no body, it would read as empty, again and again).
 */
export function withBodyRead<T extends { readonly body: ReadableStream | null }>(make: (body: ReadableStream) => T): T {
  const made = make(new ReadableStream());
  void made.body!.getReader().read();
  return made;
}

/**
 * A real Request or Response standing in for one whose body stream a reader holds: made by `make`
 * with a stream that is then locked, so it refuses reads and copies as the standard does, but
 * does not say `bodyUsed`.
 */
export function withBodyLocked<T extends { readonly body: ReadableStream | null }>(make: (body: ReadableStream) => T): T {
  const made = make(new ReadableStream());
  made.body!.getReader();
  return made;
}

/**
 * Gives `lazy` every method and getter of `native` that it does not define, each forwarding to
 * `real(this)`, and makes `lazy` inherit from `native` so `instanceof` holds.
 */
export function delegateToNative(lazy: object, native: object, real: (self: object) => object, tag: string): void {
  const own = new Set(Object.getOwnPropertyNames(lazy));
  for (const name of Object.getOwnPropertyNames(native)) {
    if (own.has(name)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(native, name)!;
    if (typeof descriptor.value === 'function') {
      Object.defineProperty(lazy, name, {
        configurable: true,
        writable: true,
        value(this: object, ...args: unknown[]) {
          return (real(this) as Record<string, (...a: unknown[]) => unknown>)[name](...args);
        },
      });
    } else if (descriptor.get) {
      Object.defineProperty(lazy, name, {
        configurable: true,
        get(this: object) {
          return (real(this) as Record<string, unknown>)[name];
        },
      });
    }
  }
  Object.defineProperty(lazy, Symbol.toStringTag, { value: tag, configurable: true });
  Object.setPrototypeOf(lazy, native);
}
