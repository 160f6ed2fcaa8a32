// Types for the parts of tools.mjs that TypeScript code (tests) imports.
/** Where `npm run setup` installs the pinned h2spec binary. */
export function h2specBin(): string;
