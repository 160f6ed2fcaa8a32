// Folders for files that live only as long as a run, a server or a socket: made in the OS temp
// directory and removed however their use ends (a process the harness kills runs no cleanup).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new folder in the OS temp directory, its name starting with `prefix`. */
export const temporaryFolder = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/** Removes `folder` and all in it (nothing if it is gone). */
export const removeFolder = (folder: string): void => rmSync(folder, { recursive: true, force: true });

/** `use` with a temporary folder of its own, removed once `use` is done, however it ends. */
export async function inTemporaryFolder<T>(prefix: string, use: (folder: string) => Promise<T>): Promise<T> {
  const folder = temporaryFolder(prefix);
  try {
    return await use(folder);
  } finally {
    removeFolder(folder);
  }
}
