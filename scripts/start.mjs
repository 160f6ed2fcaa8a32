// `npm start`: build what is missing or stale, then serve the dashboard (Ctrl-C stops it).
import { join } from 'node:path';
import { build } from './build.mjs';
import { root, run } from './tools.mjs';

build();
const port = process.env.PORT ?? '8787';
// Your runs (bench/results) and the reference run behind the README's numbers (docs/results).
run(process.execPath, [
  join(root, 'dist/bench/cli.js'),
  'dashboard',
  '--port',
  port,
  '--host',
  process.env.HOST ?? '127.0.0.1',
  '--results',
  'bench/results,docs/results',
]);
