// The wirespeed router: one table per method; in each, a hash table for static paths (O(1)
// whatever the number of routes) and a segment tree for the rest, compiled to code on the first
// lookup after a change (compile.ts), walked over the path string by index (no split, no regex).
import { TOKEN } from '../fields.js';
import { compileMatcher, type Matcher, type MatcherFactory } from './compile.js';
import { RouterError } from './errors.js';
import { paramNames, parsePattern, type Segment } from './pattern.js';
import { collect, Node, type Handler, type Match, type Params, type ParamsBuilder } from './tree.js';

export type { Match, Params };

/** The method that matches any method. */
export const ANY_METHOD = 'ALL';

/** How a Router matches paths. */
export interface RouterOptions {
  /** '/a/' and '/a' are the same route (default false: they differ, as in find-my-way). */
  ignoreTrailingSlash?: boolean;
  /** Match paths case-insensitively; params then come back lowercased (default true: case matters). */
  caseSensitive?: boolean;
}

/** What `lookup` found: a route, a path with other methods, or nothing. */
export type Lookup<T> = ({ status: 'found' } & Match<T>) | { status: 'method-not-allowed'; allowed: string[] } | { status: 'not-found' };

/**
 * Static paths are filtered by their length modulo this (a bit each in one small-integer field:
 * 30 bits keep it a Smi, so the test is a field load and a shift, no memory behind it).
 */
const LENGTH_BITS = 30;

/**
 * A table by path: an object whose prototype is a frozen object without one. Nothing put on
 * Object.prototype (pollution elsewhere in an app) is found through it, and unlike
 * `Object.create(null)`, which V8 keeps in dictionary mode, it has fast properties while small.
 * Measured against a Map (docs/architecture.md, "Router"): as fast or faster for fresh path strings,
 * and a load by a literal path is a field load.
 */
const PathTable = function PathTable() {} as unknown as new <V>() => Record<string, V | undefined>;
PathTable.prototype = Object.freeze(Object.create(null) as object);

/**
 * The routes one method sees: its own, then (for HEAD) GET's, then ALL's, merged where they were
 * added so that a lookup walks one table and never asks which method a slot holds. Static paths
 * sit in a PathTable (a hash lookup, whatever their number); the rest in a segment tree, made
 * with the first dynamic route.
 */
class MethodTable<T> {
  /**
   * The static routes' results by path, read by a lookup: the hit is the answer. (Their handlers
   * sit in a Map: a second PathTable with the same keys would share this one's hidden classes and
   * blur the type V8 records for each path's value.)
   */
  readonly staticMatches = new PathTable<Match<T>>();
  /** The static routes' handlers (which method holds each path). */
  readonly staticHandlers = new Map<string, Handler<T>>();
  /**
   * Bit `length % LENGTH_BITS` is set when some static path has such a length: a path of no such
   * length skips the hash lookup (hashing a fresh path string costs as much as walking a short tree).
   */
  staticLengths = 0;
  root: Node<T> | null = null;
  /** The tree as code; made on the first lookup after a route was added (null until then). */
  matcher: Matcher<T> | null = null;

  constructor(readonly method: string) {}

  /** Puts `handler` in `slot` unless a route of a nearer method (see `rank`) holds it. */
  place<K extends 'route' | 'wildcard'>(node: Node<T>, slot: K, handler: Handler<T>): void {
    if (this.nearer(handler, node[slot])) node[slot] = handler;
  }

  placeStatic(path: string, handler: Handler<T>): void {
    if (!this.nearer(handler, this.staticHandlers.get(path))) return;
    this.staticHandlers.set(path, handler);
    this.staticMatches[path] = handler.match;
    this.staticLengths |= 1 << (path.length % LENGTH_BITS);
  }

  /** Whether `handler` takes a slot `held` holds: it is empty, or `handler`'s method is nearer this table's. */
  private nearer(handler: Handler<T>, held: Handler<T> | null | undefined): boolean {
    return !held || rank(this.method, handler.method) < rank(this.method, held.method);
  }

  /** The result of the static route for `path`, if any. */
  staticMatch(path: string): Match<T> | undefined {
    return (this.staticLengths & (1 << (path.length % LENGTH_BITS))) === 0 ? undefined : this.staticMatches[path];
  }
}

/** How near a route of `routeMethod` is to a request of `method`: its own first, GET for HEAD, then ALL. */
function rank(method: string, routeMethod: string): number {
  if (routeMethod === method) return 0;
  return routeMethod === ANY_METHOD ? 2 : 1;
}

/** Whether a route of `routeMethod` serves requests of `method`. */
function serves(routeMethod: string, method: string): boolean {
  return routeMethod === method || routeMethod === ANY_METHOD || (method === 'HEAD' && routeMethod === 'GET');
}

interface Route<T> {
  segments: Segment[];
  /** The normalized path of a route without params, else null. */
  staticPath: string | null;
  handler: Handler<T>;
}

const EMPTY_PARAMS: Params = Object.freeze({}) as Params;

/**
 * The tables that serve the methods of RFC 9110 §9.3 a server sees, and PATCH (RFC 5789), resolved
 * whenever a route is added. A field each, read through a switch (`Router.tableServing`): no hashing
 * of the method, which for a string fresh from a parser is what a Map lookup costs (measured 2-3x a
 * compare). Fields, not an array by slot: with the rest of this `find`, slots measured slower on a
 * static hit (docs/architecture.md, "Router").
 */
class StandardTables<T> {
  GET: MethodTable<T> | null = null;
  HEAD: MethodTable<T> | null = null;
  POST: MethodTable<T> | null = null;
  PUT: MethodTable<T> | null = null;
  DELETE: MethodTable<T> | null = null;
  PATCH: MethodTable<T> | null = null;
  OPTIONS: MethodTable<T> | null = null;
}

const STANDARD_METHODS = Object.keys(new StandardTables()) as (keyof StandardTables<unknown>)[];

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

/**
 * A function that makes `{ name0: v[0], ... }` (values percent-decoded when `decoding`) as one
 * object literal: V8 then allocates it with its final shape at once, where adding keys one by one
 * walks through shapes (find-my-way does the same). The names are validated identifiers or '*',
 * quoted by JSON.stringify. Where a content security policy forbids `new Function`, the generic
 * builder is used.
 */
function paramsBuilder(names: string[], builders: Map<string, ParamsBuilder>): ParamsBuilder {
  const key = names.join('/');
  let builder = builders.get(key);
  if (builder) return builder;
  try {
    const fields = (value: (i: number) => string) => names.map((name, i) => `${JSON.stringify(name)}: ${value(i)}`).join(', ');
    const body = `return d ? { ${fields((i) => `decode(v[${i}])`)} } : { ${fields((i) => `v[${i}]`)} };`;
    builder = new Function('decode', `return function params(v, d) { ${body} };`)(decode) as ParamsBuilder;
  } catch {
    builder = (values, decoding) => {
      const params: Params = {};
      for (let i = 0; i < names.length; i++) params[names[i]] = decoding ? decode(values[i]) : values[i];
      return params;
    };
  }
  builders.set(key, builder);
  return builder;
}

function decode(value: string): string {
  if (value.indexOf('%') === -1) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new RouterError('ERR_INVALID_PERCENT_ENCODING', `malformed percent-encoding in ${JSON.stringify(value)}`);
  }
}

/**
 * A segment-tree router: static, parameter and wildcard segments, one table per method (a request
 * walks only the routes its method can reach; a method no route takes is answered at once).
 */
export class Router<T> {
  /** Every route, in the order added: a method seen for the first time gets a table made from them. */
  private readonly routes: Route<T>[] = [];
  /** `${method} ${shape}` of every route, where shape names params ':' (conflicts). */
  private readonly shapes = new Set<string>();
  /**
   * The tables of methods that have routes of their own. HEAD without routes of its own reads GET's
   * (the same order: GET's routes, then ALL's).
   */
  private readonly tables = new Map<string, MethodTable<T>>();
  /** The table of every other method: ALL routes only (null while there are none). */
  private anyMethod: MethodTable<T> | null = null;
  /** The tables of the standard methods (see StandardTables). */
  private readonly standard = new StandardTables<T>();
  private readonly ignoreTrailingSlash: boolean;
  private readonly caseSensitive: boolean;
  /** Params builders by their names: routes with the same names share one (one call target, inlined). */
  private readonly builders = new Map<string, ParamsBuilder>();
  /** The matcher code made so far, by its source (see compileMatcher). */
  private readonly factories = new Map<string, MatcherFactory>();
  /** Param values of the lookup in progress (reused: find is synchronous). */
  private readonly values: string[] = [];

  constructor(options: RouterOptions = {}) {
    this.ignoreTrailingSlash = options.ignoreTrailingSlash ?? false;
    this.caseSensitive = options.caseSensitive ?? true;
    // Options that change paths put that step in front of `find`; the default `find` passes `path`
    // on untouched, so V8 keeps what it knows of it (a conditional on it measured 6.6 against
    // 4.8 ns for a static hit).
    if (!this.caseSensitive || this.ignoreTrailingSlash) {
      const findAsIs = Router.prototype.find;
      this.find = (method, path) => findAsIs.call(this, method, this.normalize(path));
    }
  }

  /**
   * Registers `value` for `method` ('ALL' for any) and `pattern`; throws RouterError on an invalid
   * method or pattern, or a conflict. Methods are case-sensitive (RFC 9110 §9.1), as in `find`.
   */
  add(method: string, pattern: string, value: T): this {
    const verb = checkMethod(method);
    const path = this.normalize(pattern);
    const segments = parsePattern(path);
    const shape = `${verb} ${segments.map(shapeOf).join('/')}`;
    if (this.shapes.has(shape)) throw new RouterError('ERR_ROUTE_CONFLICT', `${verb} ${pattern} is already registered`);
    this.shapes.add(shape);
    const names = paramNames(segments);
    const handler: Handler<T> = {
      value,
      method: verb,
      names,
      build: paramsBuilder(names, this.builders),
      match: Object.freeze({ value, params: EMPTY_PARAMS }),
    };
    const route: Route<T> = { segments, staticPath: segments.every((s) => s.kind === 'static') ? path : null, handler };
    // A new table takes the routes added before this one; then this one goes to every table it serves.
    if (verb === ANY_METHOD) this.anyMethod ??= new MethodTable<T>(ANY_METHOD);
    else this.tableOf(verb);
    this.routes.push(route);
    for (const table of this.allTables()) if (serves(verb, table.method)) this.insert(table, route);
    for (const standard of STANDARD_METHODS) this.standard[standard] = this.tableFor(standard);
    return this;
  }

  /** The route for `method` and `path` (no query string), or null. HEAD falls back to GET. */
  find(method: string, path: string): Match<T> | null {
    // Small enough for V8 to inline into the caller: a method without routes costs a compare, a
    // static route a hash lookup. The tree walk is a call of its own, so that inlining this much
    // fits V8's budget in a caller of any size.
    const table = this.tableServing(method);
    return table === null ? null : this.findIn(table, path);
  }

  private findIn(table: MethodTable<T>, path: string): Match<T> | null {
    const hit = table.staticMatch(path);
    return hit !== undefined ? hit : this.findDynamic(table, path);
  }

  /** The table that serves `method`: a standard one by a switch (lengths, then contents), else by the Map. */
  private tableServing(method: string): MethodTable<T> | null {
    switch (method) {
      case 'GET':
        return this.standard.GET;
      case 'POST':
        return this.standard.POST;
      case 'HEAD':
        return this.standard.HEAD;
      case 'PUT':
        return this.standard.PUT;
      case 'DELETE':
        return this.standard.DELETE;
      case 'PATCH':
        return this.standard.PATCH;
      case 'OPTIONS':
        return this.standard.OPTIONS;
      default:
        return this.tableFor(method);
    }
  }

  /** The route for `key` in `table`'s tree (its static paths missed). */
  private findDynamic(table: MethodTable<T>, key: string): Match<T> | null {
    if (table.root === null || key.charCodeAt(0) !== 47 /* '/' */) return null;
    const handler = (table.matcher ??= compileMatcher(table.root, this.factories))(key, this.values);
    if (handler === null) return null;
    if (handler.names.length === 0) return handler.match;
    // One scan of the path says whether any value needs percent-decoding.
    return { value: handler.value, params: handler.build(this.values, key.indexOf('%') !== -1) };
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
    // A method's own routes all sit in its table (only other methods' routes can be shadowed there).
    for (const table of this.allTables()) {
      const hit = table.staticHandlers.get(key);
      if (hit) allowed.add(hit.method);
      if (table.root && key.startsWith('/')) collect(table.root, key, 1, allowed);
    }
    if (allowed.has('GET')) allowed.add('HEAD');
    return [...allowed].sort();
  }

  /** The table that serves `method`. */
  private tableFor(method: string): MethodTable<T> | null {
    return this.tables.get(method) ?? (method === 'HEAD' ? this.tables.get('GET') : undefined) ?? this.anyMethod;
  }

  private *allTables(): Iterable<MethodTable<T>> {
    yield* this.tables.values();
    if (this.anyMethod) yield this.anyMethod;
  }

  /** `method`'s table, made (with the routes already added that serve it) when first needed. */
  private tableOf(method: string): MethodTable<T> {
    let table = this.tables.get(method);
    if (table) return table;
    this.tables.set(method, (table = new MethodTable<T>(method)));
    for (const route of this.routes) if (serves(route.handler.method, method)) this.insert(table, route);
    return table;
  }

  private insert(table: MethodTable<T>, route: Route<T>): void {
    if (route.staticPath !== null) return table.placeStatic(route.staticPath, route.handler);
    table.matcher = null;
    let node = (table.root ??= new Node<T>());
    for (const segment of route.segments) {
      if (segment.kind === 'wildcard') return table.place(node, 'wildcard', route.handler);
      node = node.child(segment);
    }
    table.place(node, 'route', route.handler);
  }

  private normalize(path: string): string {
    let out = this.caseSensitive ? path : path.toLowerCase();
    if (this.ignoreTrailingSlash && out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
    return out;
  }
}

/** A segment as conflicts see it: params are ':' whatever their names. */
function shapeOf(segment: Segment): string {
  switch (segment.kind) {
    case 'static':
      return segment.text;
    case 'param':
      return ':';
    case 'compound':
      return segment.key;
    case 'wildcard':
      return '*';
  }
}
