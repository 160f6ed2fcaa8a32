// Every ```ts block of the README, type-checked with `tsc --strict` and run with node against the
// package as npm ships it (`npm pack`, unpacked into a project of its own), so the README cannot
// drift from the code again. Peers the blocks import (hono, msgpackr) are linked from this repo.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packProject, ROOT } from './pack.js';

/** The README's ```ts blocks, with the line each starts on. */
function readmeBlocks(): { line: number; code: string }[] {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const blocks: { line: number; code: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```ts') continue;
    const start = i + 1;
    while (lines[++i].trim() !== '```');
    blocks.push({ line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

/** What the blocks import besides wirespeed (and what tsc needs), linked from this repo. */
const LINKED = ['hono', 'msgpackr', 'mitata', '@types/node'];

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    skipLibCheck: true,
    outDir: 'out',
  },
  include: ['*.mts'],
};

describe('README', () => {
  const blocks = readmeBlocks();
  let project = '';

  beforeAll(() => {
    project = packProject('wirespeed-readme-');
    for (const name of LINKED) {
      mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'dir');
    }
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    blocks.forEach((block, i) => writeFileSync(join(project, `block-${i + 1}.mts`), block.code));
  }, 60_000);

  it('has its code in ```ts blocks (the ones below)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(9);
  });

  it('every block type-checks with tsc --strict against the packed package', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    // block-N.mts(line,col) → README.md line, so a failure points at the README.
    const located = output.replace(
      /block-(\d+)\.mts\((\d+),(\d+)\)/g,
      (_, n, line, col) => `README.md:${blocks[n - 1].line + Number(line) - 1}:${col}`,
    );
    expect(located).toBe('');
  }, 60_000);

  for (const [i, block] of blocks.entries()) {
    it(`the block at README.md:${block.line} runs to its end`, () => {
      const out = execFileSync(process.execPath, [join(project, 'out', `block-${i + 1}.mjs`)], {
        cwd: project,
        encoding: 'utf8',
        timeout: 20_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out.length).toBeGreaterThan(0); // every block shows what it did
    }, 30_000);
  }
});

/** GitHub's anchor for a heading: lower case, no punctuation but `-` and `_`, spaces as `-`. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('the documents the README links', () => {
  const documents = ['README.md', 'docs/numbers.md', 'docs/architecture.md', 'bench/README.md'];
  const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
  const anchors = (file: string) => new Set([...text(file).matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1])));

  it('knows the anchors GitHub makes', () => {
    expect(anchorOf('Switching from @hono/node-server')).toBe('switching-from-hononode-server');
    expect(anchorOf("React's streaming server rendering")).toBe('reacts-streaming-server-rendering');
  });

  for (const document of documents) {
    it(`${document}: every link to a file of the repo reaches it, and every #place a heading there`, () => {
      const links = [...text(document).matchAll(/\]\(((?!https?:)[^)]+)\)/g)].map((m) => m[1]);
      for (const link of links) {
        const [path, place] = link.split('#');
        const target = path ? join(document, '..', path) : document;
        expect(existsSync(join(ROOT, target)), `${document}: ${link}`).toBe(true);
        if (place !== undefined) expect(anchors(target), `${document}: ${link}`).toContain(place);
      }
    });
  }
});
