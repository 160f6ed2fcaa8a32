// Peers are optional: `npx wirespeed bench` runs from an installed wirespeed, which brings none of
// them. A peer whose package (or program) is missing is left out of the run, and the run says once,
// at its end, what it left out and what to install. wirespeed's own cases always run.

const leftOut = new Map<string, Set<string>>();
const missingPackages = new Set<string>();

/** The npm package a module-not-found error names (`fastify`, `@hono/node-server`), or null. */
function missingPackageOf(error: unknown): string | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return null;
  // Node: "Cannot find package 'x' imported from …" (ESM), "Cannot find module 'x/lib/y.js'" (require).
  const specifier = /Cannot find (?:package|module) '([^']+)'/.exec(String(message))?.[1];
  if (!specifier || /^[./]|^[a-z]+:/i.test(specifier)) return null; // our own file missing is a bug, not a peer
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Records that `item` (a peer, or a case) was left out of the run, and why. */
export function noteLeftOut(reason: string, item: string): void {
  const items = leftOut.get(reason) ?? new Set<string>();
  items.add(item);
  leftOut.set(reason, items);
}

/** Records that `impl` was left out because the npm package `name` is not installed. */
export function noteMissing(name: string, impl: string): void {
  missingPackages.add(name);
  noteLeftOut(`${name} is not installed`, impl);
}

/**
 * Loads a peer's module; null (noted for the end of the run) when a package it needs is not
 * installed. Any other failure is a real error and is thrown.
 */
export async function optionalPeer<T>(impl: string, load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackageOf(error);
    if (missing === null) throw error;
    noteMissing(missing, impl);
    return null;
  }
}

/** One line per reason cases were left out, then the install command (empty when nothing was). */
export function leftOutLines(): string[] {
  const lines = [...leftOut].map(([reason, items]) => `left out ${[...items].join(', ')}: ${reason}`);
  if (missingPackages.size > 0) lines.push(`to run them too: npm install --save-dev ${[...missingPackages].join(' ')}`);
  return lines;
}

/** Thrown by a case's setup when it cannot run here (the message says why); the run leaves it out. */
export class LeftOutError extends Error {}

/**
 * What became of a case that did not produce a result: left out (and why, and which package would
 * bring it), or failed. Null when `error` is a real failure.
 */
export function leftOutReason(error: unknown): { reason: string; missingPackage: string | null } | null {
  const missing = missingPackageOf(error);
  if (missing !== null) return { reason: `${missing} is not installed`, missingPackage: missing };
  if (error instanceof LeftOutError) return { reason: error.message, missingPackage: null };
  return null;
}
