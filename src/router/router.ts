// The wirespeed router: a map in front for static paths (O(1) whatever the number of routes), a
// segment tree for the rest, walked over the path string by index (no split, no regex).
import { RouterError } from './errors.js';
import { matchCompound, paramNames, parsePattern, type Part, type Segment } from './pattern.js';

/** The method that matches any method. */
export const ANY_METHOD = 'ALL';

/** How a Router matches paths. */
export interface RouterOptions {
  /** '/a/' and '/a' are the same route (default false: they differ, as in find-my-way). */
  ignoreTrailingSlash?: boolean;
  /** Match paths case-insensitively; params then come back lowercased (default true: case matters). */
  caseSensitive?: boolean;
}

/** Route parameters by name, percent-decoded. */
export type Params = Record<string, string>;

/** A found route. Read-only: a route without params returns the same object every time. */
export interface Match<T> {
  readonly value: T;
  /** Percent-decoded; '*' holds a wildcard's rest. */
  readonly params: Params;
}

/** What `lookup` found: a route, a path with other methods, or nothing. */
export type Lookup<T> = ({ status: 'found' } & Match<T>) | { status: 'method-not-allowed'; allowed: string[] } | { status: 'not-found' };

interface Handler<T> {
  value: T;
  names: string[];
  /** Builds this route's params object from the captured values (see `paramsBuilder`). */
  build: (values: string[]) => Params;
  /** The result of a route without params, made once (results are read-only). */
  match: Match<T>;
}

type MethodTable<T> = Record<string, Handler<T>>;

/** Static children are searched in a list up to this many, then in a Map (a list scan is faster for a few). */
const STATIC_LIST_MAX = 6;

class Node<T> {
  /** Few static children are compared in place (no substring); many go through a map. */
  staticList: [text: string, node: Node<T>][] = [];
  staticMap: Map<string, Node<T>> | null = null;
  compound: { key: string; parts: Part[]; node: Node<T> }[] = [];
  param: Node<T> | null = null;
  wildcard: MethodTable<T> | null = null;
  routes: MethodTable<T> | null = null;

  staticChild(text: string): Node<T> | undefined {
    return this.staticMap ? this.staticMap.get(text) : this.staticList.find(([t]) => t === text)?.[1];
  }

  addStatic(text: string, node: Node<T>): void {
    this.staticList.push([text, node]);
    if (this.staticList.length > STATIC_LIST_MAX) this.staticMap = new Map(this.staticList);
  }
}

const EMPTY_PARAMS: Params = Object.freeze({}) as Params;

/** RFC 9110 §5.6.2: a method is a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The methods whose lower-case spelling is surely a slip (RFC 9110 §9.3, RFC 5789), and ALL. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', ANY_METHOD]);

/** `method` if it can ever match a request; else RouterError ERR_INVALID_METHOD saying why. */
function checkMethod(method: string): string {
  if (typeof method !== 'string' || !TOKEN.test(method)) {
    const shown = typeof method === 'string' ? JSON.stringify(method) : `a ${typeof method}`;
    throw new RouterError('ERR_INVALID_METHOD', `${shown} is not a method: a method is a token (RFC 9110 §9.1), like "GET"`);
  }
  const upper = method.toUpperCase();
  if (upper !== method && KNOWN_METHODS.has(upper)) {
    throw new RouterError(
      'ERR_INVALID_METHOD',
      `methods are case-sensitive (RFC 9110 §9.1): "${method}" is not "${upper}"; write "${upper}"`,
    );
  }
  return method;
}

function handlerFor<T>(table: MethodTable<T>, method: string): Handler<T> | undefined {
  return table[method] ?? (method === 'HEAD' ? table.GET : undefined) ?? table[ANY_METHOD];
}

/**
 * A function that makes `{ name0: decode(v[0]), ... }` as one object literal: V8 then allocates
 * it with its final shape at once, where adding keys one by one walks through shapes (find-my-way
 * does the same). The names are validated identifiers or '*', quoted by JSON.stringify. Where a
 * content security policy forbids `new Function`, the generic builder is used.
 */
function paramsBuilder(names: string[]): (values: string[]) => Params {
  try {
    const fields = names.map((name, i) => `${JSON.stringify(name)}: decode(v[${i}])`).join(', ');
    return new Function('decode', `return function params(v) { return { ${fields} }; };`)(decode) as (values: string[]) => Params;
  } catch {
    return (values) => {
      const params: Params = {};
      for (let i = 0; i < names.length; i++) params[names[i]] = decode(values[i]);
      return params;
    };
  }
}

function decode(value: string): string {
  if (value.indexOf('%') === -1) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new RouterError('ERR_INVALID_PERCENT_ENCODING', `malformed percent-encoding in ${JSON.stringify(value)}`);
  }
}

/** A radix-tree router: static, parameter and wildcard segments, per method. */
export class Router<T> {
  private readonly staticRoutes = new Map<string, MethodTable<T>>();
  private readonly root = new Node<T>();
  private readonly ignoreTrailingSlash: boolean;
  private readonly caseSensitive: boolean;
  /** Param values of the walk in progress: values[0..count) (reused: find is synchronous). */
  private readonly values: string[] = [];
  private count = 0;
  private path = '';
  private method = '';
  /** Methods with a dynamic route; a lookup for another method skips the tree. */
  private readonly treeMethods = new Set<string>();

  constructor(options: RouterOptions = {}) {
    this.ignoreTrailingSlash = options.ignoreTrailingSlash ?? false;
    this.caseSensitive = options.caseSensitive ?? true;
  }

  /**
   * Registers `value` for `method` ('ALL' for any) and `pattern`; throws RouterError on an invalid
   * method or pattern, or a conflict. Methods are case-sensitive (RFC 9110 §9.1), as in `find`.
   */
  add(method: string, pattern: string, value: T): this {
    const verb = checkMethod(method);
    const segments = parsePattern(this.normalize(pattern));
    const names = paramNames(segments);
    const handler: Handler<T> = { value, names, build: paramsBuilder(names), match: Object.freeze({ value, params: EMPTY_PARAMS }) };
    if (segments.every((s) => s.kind === 'static')) {
      const path = this.normalize(pattern);
      let table = this.staticRoutes.get(path);
      if (!table) this.staticRoutes.set(path, (table = {}));
      return this.put(table, verb, handler, pattern);
    }
    this.treeMethods.add(verb);
    let node = this.root;
    for (const segment of segments) {
      if (segment.kind === 'wildcard') return this.put((node.wildcard ??= {}), verb, handler, pattern);
      node = this.child(node, segment);
    }
    return this.put((node.routes ??= {}), verb, handler, pattern);
  }

  /** The route for `method` and `path` (no query string), or null. HEAD falls back to GET. */
  find(method: string, path: string): Match<T> | null {
    const key = this.normalize(path);
    const table = this.staticRoutes.get(key);
    if (table) {
      const handler = handlerFor(table, method);
      if (handler) return handler.match;
    }
    if (key.charCodeAt(0) !== 47 /* '/' */ || !this.inTree(method)) return null;
    this.path = key;
    this.method = method;
    this.count = 0;
    const handler = this.walk(this.root, 1);
    if (!handler) return null;
    return handler.names.length === 0 ? handler.match : { value: handler.value, params: this.params(handler) };
  }

  /** Like `find`, but tells "no such path" (404) from "not for this method" (405 + Allow). */
  lookup(method: string, path: string): Lookup<T> {
    const match = this.find(method, path);
    if (match) return { status: 'found', ...match };
    const allowed = this.allowedMethods(path);
    return allowed.length ? { status: 'method-not-allowed', allowed } : { status: 'not-found' };
  }

  /** The methods some route takes for `path`, sorted (HEAD wherever GET is); empty when no route matches it. */
  allowedMethods(path: string): string[] {
    const allowed = new Set<string>();
    const key = this.normalize(path);
    const table = this.staticRoutes.get(key);
    if (table) for (const m of Object.keys(table)) allowed.add(m);
    this.path = key;
    if (key.startsWith('/')) this.collect(this.root, 1, allowed);
    if (allowed.has('GET')) allowed.add('HEAD');
    return [...allowed].sort();
  }

  private inTree(method: string): boolean {
    const methods = this.treeMethods;
    return methods.has(method) || methods.has(ANY_METHOD) || (method === 'HEAD' && methods.has('GET'));
  }

  private normalize(path: string): string {
    let out = this.caseSensitive ? path : path.toLowerCase();
    if (this.ignoreTrailingSlash && out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
    return out;
  }

  private put(table: MethodTable<T>, method: string, handler: Handler<T>, pattern: string): this {
    if (table[method]) throw new RouterError('ERR_ROUTE_CONFLICT', `${method} ${pattern} is already registered`);
    table[method] = handler;
    return this;
  }

  private child(node: Node<T>, segment: Exclude<Segment, { kind: 'wildcard' }>): Node<T> {
    switch (segment.kind) {
      case 'static': {
        let child = node.staticChild(segment.text);
        if (!child) node.addStatic(segment.text, (child = new Node<T>()));
        return child;
      }
      case 'param':
        return (node.param ??= new Node<T>());
      case 'compound': {
        let entry = node.compound.find((c) => c.key === segment.key);
        if (!entry) node.compound.push((entry = { key: segment.key, parts: segment.parts, node: new Node<T>() }));
        return entry.node;
      }
    }
  }

  /** Depth-first in priority order: static, compound, param, wildcard; backtracks on failure. */
  private walk(node: Node<T>, start: number): Handler<T> | undefined {
    const path = this.path;
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    const mark = this.count;

    if (node.staticMap) {
      const child = node.staticMap.get(path.slice(start, end));
      if (child) {
        const found = this.next(child, slash);
        if (found) return found;
      }
    } else {
      const list = node.staticList;
      for (let i = 0; i < list.length; i++) {
        const text = list[i][0];
        if (text.length === end - start && path.startsWith(text, start)) {
          const found = this.next(list[i][1], slash);
          if (found) return found;
          break;
        }
      }
    }
    const compound = node.compound;
    for (let i = 0; i < compound.length; i++) {
      const scratch: string[] = [];
      if (matchCompound(compound[i].parts, path, start, end, scratch)) {
        for (let j = 0; j < scratch.length; j++) this.values[this.count++] = scratch[j];
        const found = this.next(compound[i].node, slash);
        if (found) return found;
        this.count = mark;
      }
    }
    if (node.param !== null && end > start) {
      this.values[this.count++] = path.slice(start, end);
      const found = this.next(node.param, slash);
      if (found) return found;
      this.count = mark;
    }
    if (node.wildcard !== null) {
      const handler = handlerFor(node.wildcard, this.method);
      if (handler) {
        this.values[this.count++] = path.slice(start);
        return handler;
      }
    }
    return undefined;
  }

  /** Continues after a matched segment: at the end of the path, the node's own routes decide. */
  private next(node: Node<T>, slash: number): Handler<T> | undefined {
    if (slash !== -1) return this.walk(node, slash + 1);
    if (node.routes) return handlerFor(node.routes, this.method);
    return undefined;
  }

  /** Every method of every route whose pattern matches `path` (for 405's Allow). */
  private collect(node: Node<T>, start: number, out: Set<string>): void {
    const path = this.path;
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    const visit = (child: Node<T>) => {
      if (slash !== -1) this.collect(child, slash + 1, out);
      else if (child.routes) for (const m of Object.keys(child.routes)) out.add(m);
    };
    const child = node.staticChild(path.slice(start, end));
    if (child) visit(child);
    for (const c of node.compound) if (matchCompound(c.parts, path, start, end, [])) visit(c.node);
    if (node.param && end > start) visit(node.param);
    if (node.wildcard) for (const m of Object.keys(node.wildcard)) out.add(m);
  }

  private params(handler: Handler<T>): Params {
    return handler.names.length === 0 ? EMPTY_PARAMS : handler.build(this.values);
  }
}
