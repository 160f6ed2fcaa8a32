// CommonJS peers without types: the two modules of undici's package the llhttp-wasm peer loads,
// hpack.js and Milo's module with its wasm inline.
declare module 'undici/lib/llhttp/llhttp-wasm.js' {
  /** The wasm module's bytes (a Buffer). */
  const bytes: Uint8Array;
  export default bytes;
}
declare module 'undici/lib/llhttp/constants.js' {
  const constants: { METHODS: Record<string, number>; TYPE: { REQUEST: number } };
  export default constants;
}
declare module 'hpack.js' {
  const hpack: unknown;
  export default hpack;
}
declare module '@perseveranza-pets/milo/index-with-wasm.js' {
  const milo: unknown;
  export default milo;
}
