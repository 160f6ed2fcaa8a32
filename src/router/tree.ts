// The segment tree of one method's dynamic routes, and the walk that interprets it. The walk is
// the reference: compile.ts turns a tree into code that must answer exactly as the walk does.
import { matchCompound, type Part, type Segment } from './pattern.js';

/** Route parameters by name, percent-decoded. */
export type Params = Record<string, string>;

/** A found route. Read-only: a route without params returns the same object every time. */
export interface Match<T> {
  readonly value: T;
  /** Percent-decoded; '*' holds a wildcard's rest. */
  readonly params: Params;
}

/** Makes a route's params from the captured values, percent-decoding them when `decoding`. */
export type ParamsBuilder = (values: string[], decoding: boolean) => Params;

/** A registered route's value and how to make its params. */
export interface Handler<T> {
  value: T;
  /** The method it was registered for ('ALL' for any). */
  method: string;
  names: string[];
  build: ParamsBuilder;
  /** The result of a route without params, made once (results are read-only). */
  match: Match<T>;
}

/** Static children are searched in a list up to this many, then in a Map (a list scan is faster for a few). */
const STATIC_LIST_MAX = 6;

/** One segment position: its children by kind, and the routes that end here. */
export class Node<T> {
  /** Few static children are compared in place (no substring); many go through a map. */
  staticList: [text: string, node: Node<T>][] = [];
  staticMap: Map<string, Node<T>> | null = null;
  compound: { key: string; parts: Part[]; node: Node<T> }[] = [];
  param: Node<T> | null = null;
  /** The route whose pattern ends in '/*' here. */
  wildcard: Handler<T> | null = null;
  /** The route whose pattern ends here. */
  route: Handler<T> | null = null;

  /** Every static child, however they are kept. */
  get statics(): [text: string, node: Node<T>][] {
    return this.staticMap ? [...this.staticMap] : this.staticList;
  }

  staticChild(text: string): Node<T> | undefined {
    return this.staticMap ? this.staticMap.get(text) : this.staticList.find(([t]) => t === text)?.[1];
  }

  /** The child for `segment`, made if missing. */
  child(segment: Exclude<Segment, { kind: 'wildcard' }>): Node<T> {
    switch (segment.kind) {
      case 'static': {
        let next = this.staticChild(segment.text);
        if (!next) this.addStatic(segment.text, (next = new Node<T>()));
        return next;
      }
      case 'param':
        return (this.param ??= new Node<T>());
      case 'compound': {
        let entry = this.compound.find((c) => c.key === segment.key);
        if (!entry) this.compound.push((entry = { key: segment.key, parts: segment.parts, node: new Node<T>() }));
        return entry.node;
      }
    }
  }

  private addStatic(text: string, node: Node<T>): void {
    if (this.staticMap !== null) {
      this.staticMap.set(text, node);
      return;
    }
    this.staticList.push([text, node]);
    if (this.staticList.length > STATIC_LIST_MAX) {
      this.staticMap = new Map(this.staticList);
      this.staticList = [];
    }
  }
}

/**
 * The route for path[start..] below `node`, depth-first in priority order (static, compound,
 * param, wildcard) with backtracking; captured values go to values[count..].
 */
export function walk<T>(node: Node<T>, path: string, start: number, values: string[], count: number): Handler<T> | null {
  const slash = path.indexOf('/', start);
  const end = slash === -1 ? path.length : slash;

  if (node.staticMap !== null) {
    const next = node.staticMap.get(path.slice(start, end));
    if (next !== undefined) {
      const found = slash === -1 ? next.route : walk(next, path, slash + 1, values, count);
      if (found !== null) return found;
    }
  } else {
    const list = node.staticList;
    for (let i = 0; i < list.length; i++) {
      const text = list[i][0];
      if (text.length === end - start && path.startsWith(text, start)) {
        const next = list[i][1];
        const found = slash === -1 ? next.route : walk(next, path, slash + 1, values, count);
        if (found !== null) return found;
        break;
      }
    }
  }
  const compound = node.compound;
  for (let i = 0; i < compound.length; i++) {
    const scratch: string[] = [];
    if (matchCompound(compound[i].parts, path, start, end, scratch)) {
      for (let j = 0; j < scratch.length; j++) values[count + j] = scratch[j];
      const next = compound[i].node;
      const found = slash === -1 ? next.route : walk(next, path, slash + 1, values, count + scratch.length);
      if (found !== null) return found;
    }
  }
  const param = node.param;
  if (param !== null && end > start) {
    values[count] = path.slice(start, end);
    const found = slash === -1 ? param.route : walk(param, path, slash + 1, values, count + 1);
    if (found !== null) return found;
  }
  if (node.wildcard !== null) {
    values[count] = path.slice(start);
    return node.wildcard;
  }
  return null;
}

/** The methods of every route below `node` whose pattern matches path[start..] (for 405's Allow). */
export function collect<T>(node: Node<T>, path: string, start: number, out: Set<string>): void {
  const slash = path.indexOf('/', start);
  const end = slash === -1 ? path.length : slash;
  const visit = (next: Node<T>) => {
    if (slash !== -1) collect(next, path, slash + 1, out);
    else if (next.route) out.add(next.route.method);
  };
  const next = node.staticChild(path.slice(start, end));
  if (next) visit(next);
  for (const c of node.compound) if (matchCompound(c.parts, path, start, end, [])) visit(c.node);
  if (node.param && end > start) visit(node.param);
  if (node.wildcard) out.add(node.wildcard.method);
}
