// Where the dashboard keeps result files: plain JSON files in folders. No set-up, no native module
// (Node 20 has no SQLite), the same files `wirespeed bench` writes, readable and diffable by hand.
// An upload is named by its content's hash and written to a temporary file that is then renamed
// into place, so a reader never sees half a file, a crash leaves no partial result, and two
// uploads at once never write the same path.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { checkResultFile } from '../harness/schema.js';
import type { ResultFile } from '../harness/types.js';
import { REPORTS } from '../reports/index.js';

/** What the machines list shows of one result file. */
export interface ResultSummary {
  name: string;
  createdAt: string;
  cpuModel: string;
  cores: number;
  os: string;
  arch: string;
  runtime: string;
  runtimeVersion: string;
  gitCommit: string | null;
  quick: boolean;
  /** Made with a `--filter`: a part of its suites. */
  filtered: boolean;
  suites: string[];
  cases: number;
  suiteCases: Record<string, number>;
  /**
   * Runs of one machine and runtime share this, e.g. "AMD EPYC · 2 cores · Linux x64 · node 20.20.2":
   * the OS without its version, which changes with every kernel build a VM is moved to.
   */
  machine: string;
  /** Per report, the indexes of its sections this run has cases for. */
  fills: Record<string, number[]>;
}

const NAME = /^[\w.+-]+\.json$/;

export function isResultName(name: string): boolean {
  return NAME.test(name) && !name.startsWith('.');
}

function summarize(name: string, file: ResultFile): ResultSummary {
  const f = file.fingerprint;
  const suiteCases: Record<string, number> = {};
  for (const c of file.cases) suiteCases[c.suite] = (suiteCases[c.suite] ?? 0) + 1;
  const fills: Record<string, number[]> = {};
  for (const [key, report] of Object.entries(REPORTS)) {
    const filled = report.sections.flatMap((section, i) => (section.table(file).rows.length > 0 ? [i] : []));
    if (filled.length > 0) fills[key] = filled;
  }
  return {
    name,
    createdAt: file.createdAt,
    cpuModel: f.cpuModel,
    cores: f.cores,
    os: f.os,
    arch: f.arch,
    runtime: f.runtime,
    runtimeVersion: f.runtimeVersion,
    gitCommit: f.gitCommit,
    quick: file.options.quick,
    filtered: file.options.filter !== undefined,
    suites: Object.keys(suiteCases),
    cases: file.cases.length,
    suiteCases,
    machine: `${f.cpuModel} · ${f.cores} cores · ${f.os.split(' ')[0]} ${f.arch} · ${f.runtime} ${f.runtimeVersion}`,
    fills,
  };
}

export class ResultStore {
  private readonly dirs: string[];
  /** Summaries by path, kept while the file's size and mtime stay the same. */
  private readonly cache = new Map<string, { key: string; summary: ResultSummary | null }>();

  /** `dirs[0]` receives uploads; later folders are read only (e.g. the reference runs). */
  constructor(dirs: string[]) {
    if (dirs.length === 0) throw new Error('the result store needs at least one folder');
    this.dirs = dirs.map((dir) => resolve(dir));
  }

  get uploadDir(): string {
    return this.dirs[0];
  }

  /** name → path of every result file (the first folder holding a name wins). */
  private async files(): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    for (const dir of this.dirs) {
      let names: string[] = [];
      try {
        names = (await readdir(dir)).filter(isResultName);
      } catch {
        // A folder that does not exist yet holds no results.
      }
      for (const name of names) if (!files.has(name)) files.set(name, join(dir, name));
    }
    return files;
  }

  /** Every valid result file, newest first. Invalid files are skipped, not fatal. */
  async list(): Promise<ResultSummary[]> {
    const items: ResultSummary[] = [];
    for (const [name, path] of await this.files()) {
      const summary = await this.summary(name, path);
      if (summary) items.push(summary);
    }
    return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name));
  }

  private async summary(name: string, path: string): Promise<ResultSummary | null> {
    try {
      const info = await stat(path);
      const key = `${info.size}:${info.mtimeMs}`;
      const cached = this.cache.get(path);
      if (cached?.key === key) return cached.summary;
      let summary: ResultSummary | null = null;
      try {
        summary = summarize(name, checkResultFile(JSON.parse(await readFile(path, 'utf8'))));
      } catch {
        // Not a result file: listed as nothing.
      }
      this.cache.set(path, { key, summary });
      return summary;
    } catch {
      return null;
    }
  }

  /** The raw bytes of a stored file, or null. */
  async read(name: string): Promise<Buffer | null> {
    if (!isResultName(name)) return null;
    const path = (await this.files()).get(name);
    if (!path) return null;
    try {
      return await readFile(path);
    } catch {
      return null;
    }
  }

  /**
   * Validates and stores an upload; returns its summary. The same file uploaded twice is stored
   * once. Throws ResultFileError (or SyntaxError) for a bad file, leaving the store untouched.
   */
  async save(text: string): Promise<{ summary: ResultSummary; created: boolean }> {
    const file = checkResultFile(JSON.parse(text));
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
    const stamp = file.createdAt.replace(/[:.]/g, '-');
    const name = `${stamp}-${file.fingerprint.runtime}-${hash}.json`;
    const existing = (await this.files()).get(name);
    if (existing) return { summary: summarize(name, file), created: false };
    await mkdir(this.uploadDir, { recursive: true });
    const path = join(this.uploadDir, name);
    const temporary = join(this.uploadDir, `.${name}.${process.pid}.${hash}.${Math.random().toString(36).slice(2)}.tmp`);
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
    return { summary: summarize(name, file), created: true };
  }
}
