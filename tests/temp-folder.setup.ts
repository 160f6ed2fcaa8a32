// vitest's global setup: the run's temp directory (TMPDIR) is a folder of its own, removed when the
// run ends. Tests, and the servers, browsers and clients they start, write their temp files there,
// so a test that fails mid-way or a process ended by SIGKILL leaves nothing in the machine's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'wirespeed-vitest-'));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
