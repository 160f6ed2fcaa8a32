// `npm start`: build what is missing or stale, then serve the dashboard (Ctrl-C stops it).
import { join } from 'node:path';
import { build } from './build.mjs';
import { root, run } from './tools.mjs';

build();
const port = process.env.PORT ?? '8787';
run(process.execPath, [join(root, 'dist/bench/cli.js'), 'dashboard', '--port', port, '--host', process.env.HOST ?? '127.0.0.1']);
