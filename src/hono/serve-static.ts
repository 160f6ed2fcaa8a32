// hono's static file middleware for apps served by wirespeed: @hono/node-server's `serveStatic`
// (its options and its answers: types, ranges, HEAD, precompressed files, Last-Modified), and
// conditional requests (If-Modified-Since, If-Range), which node-server answers with the whole
// file each time. One change of method: files are read synchronously, a small one at once and a
// large one a chunk at a time as its reader asks, where node-server streams every file through
// `fs.createReadStream` and `Readable.toWeb`. Measured (a 20 KB file, hono on wirespeed/node, wrk
// -c20, server pinned to one core): streamed 4.8k requests/s at 208 µs CPU each; `await readFile`
// 16.3k at 61 µs (each async fs call is a trip through libuv's thread pool); read synchronously
// 45.3k at 22 µs. node-server already stats synchronously; a read of a small file the kernel has
// cached costs about as much, and no read holds the thread for more than SYNC_READ_BYTES.
import { closeSync, existsSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Context, Env, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';

/** What `serveStatic` takes: @hono/node-server's options, with the same meanings. */
export interface ServeStaticOptions<E extends Env = Env> {
  /** The folder files are served from (relative to the working directory, the default). */
  root?: string;
  /** One file to serve for every request this middleware sees (relative to `root`). */
  path?: string;
  /** The file served for a folder; default 'index.html'. */
  index?: string;
  /** Serve `name.br`, `name.zst` or `name.gz` beside a compressible file when the client accepts it. */
  precompressed?: boolean;
  /** Take escaped `%` (`%25`) in the request path; any other escape is answered as not found. Default false. */
  allowPercentInPath?: boolean;
  /** Maps the (decoded) request path to the file's path under `root`. */
  rewriteRequestPath?: (path: string, c: Context<E>) => string;
  /** Called with the file's path once it is found, before the response is made (may set headers). */
  onFound?: (path: string, c: Context<E>) => void | Promise<void>;
  /** Called when no file is there; the request goes on to the next handler. */
  onNotFound?: (path: string, c: Context<E>) => void | Promise<void>;
}

/**
 * The most read synchronously at once: a whole file (or range) of up to this size, or one chunk of
 * a larger one, which is streamed, so neither a large file's bytes nor the time to read them is
 * held at once. 64 KiB is what one chunk of `fs.createReadStream` holds.
 */
const SYNC_READ_BYTES = 64 * 1024;

/** Precompressed variants, in the order they are preferred, with their file suffixes. */
const PRECOMPRESSED: readonly (readonly [encoding: string, suffix: string])[] = [
  ['br', '.br'],
  ['zstd', '.zst'],
  ['gzip', '.gz'],
];

/** Types worth compressing (those a precompressed variant may exist for): text and structured text. */
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|ecmascript|xml|wasm|manifest\+json|x-javascript)\b|image\/svg\+xml|[^;]*\+(?:json|xml|text|yaml)\b|font\/(?:otf|ttf))/i;

/** RFC 9110 §14.1.2: one `bytes` range, `first-last`, `first-` or `-suffix`. */
const BYTE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * Serves files from `root` for GET and HEAD requests, as `serveStatic` from
 * `@hono/node-server/serve-static` does: `app.use('/static/*', serveStatic({ root: './public' }))`.
 * A request path with a dot segment, an empty segment, a backslash or a percent escape (but `%25`
 * with `allowPercentInPath`) is answered as not found, and so is one `rewriteRequestPath` takes
 * out of `root`.
 */
export function serveStatic<E extends Env = Env>(options: ServeStaticOptions<E> = {}): MiddlewareHandler<E> {
  const root = options.root ?? '';
  if (root !== '' && !existsSync(root)) console.error(`serveStatic: root path '${root}' is not found, are you sure it's correct?`);
  // A request's path is looked up under the working directory when no root is given: joined to
  // '' it would be absolute (`/etc/passwd`), as @hono/node-server joins it. `path` is the app's.
  const requestRoot = root === '' ? '.' : root;
  const requestRootPath = resolve(requestRoot);
  return async (c, next) => {
    if (c.finalized || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next();
    let path: string;
    if (options.path !== undefined) path = join(root, options.path);
    else {
      const requested = fileName(c.req.path, options.allowPercentInPath === true);
      if (requested === null) {
        await options.onNotFound?.(c.req.path, c);
        return next();
      }
      path = join(requestRoot, options.rewriteRequestPath ? options.rewriteRequestPath(requested, c) : requested);
      // A rewrite may make what was checked leave the root: `/assets../x` through
      // `path.replace('/assets', '')` is `../x`. No request path names a file outside it.
      if (!isWithin(requestRootPath, resolve(path))) {
        await options.onNotFound?.(path, c);
        return next();
      }
    }
    let stats = statOf(path);
    if (stats?.isDirectory()) {
      path = join(path, options.index ?? 'index.html');
      stats = statOf(path);
    }
    if (!stats?.isFile()) {
      await options.onNotFound?.(path, c);
      return next();
    }
    const type = getMimeType(path);
    c.header('Content-Type', type ?? 'application/octet-stream');
    if (options.precompressed && (!type || type === 'application/octet-stream' || COMPRESSIBLE.test(type))) {
      const accepted = new Set(
        c.req
          .header('Accept-Encoding')
          ?.split(',')
          .map((coding) => coding.trim()),
      );
      for (const [encoding, suffix] of PRECOMPRESSED) {
        const compressed = accepted.has(encoding) ? statOf(path + suffix) : undefined;
        if (!compressed?.isFile()) continue;
        c.header('Content-Encoding', encoding);
        c.header('Vary', 'Accept-Encoding', { append: true });
        path += suffix;
        stats = compressed;
        break;
      }
    }
    const lastModified = stats.mtime.toUTCString();
    c.header('Last-Modified', lastModified);
    // Before the response is made (node-server calls it after, and its fields go out only through
    // a Response that reads its Headers late): what it sets goes out with any Response class, and
    // with a 304 (its Cache-Control is one a 304 must repeat).
    await options.onFound?.(path, c);
    if (notModifiedSince(c, stats.mtimeMs)) {
      // RFC 9110 §15.4.5: a 304 carries the fields a cache updates from (Last-Modified, Vary, Cache-Control), no body's.
      c.header('Content-Type', undefined);
      return c.body(null, 304);
    }
    return answer(c, path, stats.size, lastModified);
  };
}

/**
 * RFC 9110 §13.1.3: If-Modified-Since asks for a 304 when the file has not changed since that date
 * (at an HTTP-date's one-second precision). Ignored when it is no date, a date past this server's
 * clock, or beside If-None-Match (§13.2.2), which this middleware has no entity tag to answer.
 */
function notModifiedSince(c: Context, mtimeMs: number): boolean {
  const since = c.req.header('If-Modified-Since');
  if (since === undefined || c.req.header('If-None-Match') !== undefined) return false;
  const date = Date.parse(since);
  return date <= Date.now() && Math.floor(mtimeMs / 1000) * 1000 <= date;
}

/** The response for the file at `path` of `size` bytes: whole, a range of it, 416 or HEAD's headers. */
function answer(c: Context, path: string, size: number, lastModified: string): Response {
  if (c.req.method === 'HEAD') {
    c.header('Content-Length', String(size));
    return c.body(null, 200);
  }
  const rangeField = c.req.header('Range');
  // RFC 9110 §13.1.5: under an If-Range that is not this file's Last-Modified (another date, or an
  // entity tag, which this middleware has none of) the client wants the whole file, not a part.
  const ifRange = c.req.header('If-Range');
  const range = rangeField && (ifRange === undefined || ifRange === lastModified) ? byteRange(rangeField, size) : undefined;
  if (range === undefined) return sendBytes(c, path, 0, size, 200);
  c.header('Accept-Ranges', 'bytes');
  if (range === null) {
    c.header('Content-Range', `bytes */${size}`);
    return c.body(null, 416);
  }
  c.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  return sendBytes(c, path, range.start, range.end - range.start + 1, 206);
}

/** `length` bytes of the file from `start`, with their Content-Length: read now if small, else streamed. */
function sendBytes(c: Context, path: string, start: number, length: number, status: 200 | 206): Response {
  const fd = openSync(path, 'r');
  if (length > SYNC_READ_BYTES) {
    c.header('Content-Length', String(length));
    return c.body(fileChunks(fd, start, length), status);
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = readAt(fd, start, length);
  } finally {
    closeSync(fd);
  }
  // The file may have shrunk since its stat: the length said is the length sent.
  c.header('Content-Length', String(bytes.length));
  return c.body(bytes, status);
}

/**
 * The file's bytes from `start` as a stream that reads (synchronously, SYNC_READ_BYTES at a time)
 * only when its reader asks, and closes `fd` at the end or when cancelled. `fs.createReadStream`
 * through `Readable.toWeb` took 463 µs CPU per request for a 200 KB file here (2.2k requests/s);
 * this 159 µs (6.5k), and 1 MB files 2049 → 760 µs.
 */
function fileChunks(fd: number, start: number, length: number): ReadableStream<Uint8Array> {
  let position = start;
  let left = length;
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        try {
          const bytes = readAt(fd, position, Math.min(left, SYNC_READ_BYTES));
          position += bytes.length;
          left -= bytes.length;
          if (bytes.length > 0) controller.enqueue(bytes);
          // Empty: the file shrank since its stat, and the response ends short of its length.
          if (bytes.length === 0 || left === 0) {
            close();
            controller.close();
          }
        } catch (error) {
          close();
          throw error;
        }
      },
      cancel: close,
    },
    // Nothing is read ahead of the reader: a chunk is read when the socket can take it.
    { highWaterMark: 0 },
  );
}

/** Up to `length` bytes of the open file from `position` (fewer at its end). */
function readAt(fd: number, position: number, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, bytes, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read === length ? bytes : bytes.subarray(0, read);
}

/** Whether `path` is `folder` or under it (both absolute and normalised). */
function isWithin(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The file's stats, or undefined when there is nothing there to read (any error of stat). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The file path a request path names, or null when it must not name one: a percent escape could
 * hide a separator or a dot segment from the routes above this middleware (`/admin%2Fsecret`
 * passes a `/admin/*` guard), so only `%25` is taken, and only when allowed.
 */
function fileName(requestPath: string, allowPercent: boolean): string | null {
  let name = requestPath;
  if (name.includes('%')) {
    if (!allowPercent || /%(?!25)/.test(name)) return null;
    name = name.replaceAll('%25', '%');
  }
  if (name.includes('\\') || name.includes('//')) return null;
  for (const segment of name.split('/')) if (segment === '.' || segment === '..') return null;
  return name;
}

/**
 * The first and last byte of the one range `field` asks for in a file of `size` bytes (RFC 9110
 * §14.1.2), null when it cannot be satisfied (416), or undefined when the field is not one range
 * this reads (several ranges, another unit, garbage): RFC 9110 §14.2 lets a server ignore it and
 * answer the whole file, 200.
 */
function byteRange(field: string, size: number): { start: number; end: number } | null | undefined {
  const match = BYTE_RANGE.exec(field);
  if (!match || (match[1] === '' && match[2] === '')) return size === 0 ? null : undefined;
  if (size === 0) return null;
  const [, first, last] = match;
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 ? null : { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start >= size || start > end ? null : { start, end };
}
