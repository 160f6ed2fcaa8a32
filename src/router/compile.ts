// Compiles one method's segment tree into a function: a lookup then runs straight-line
// comparisons of char codes against constants, where the walk loads nodes, scans lists and calls
// startsWith (~30 ns each on V8) per segment. Measured 2x faster on param routes (see
// docs/architecture.md, "Router"). The generated code answers exactly as `walk` does, which
// tests/router/compile.test.ts checks on random trees; nodes past the code budget, and nodes with
// more static children than a switch serves well, are handed to `walk`.
import { matchCompound, type Part } from './pattern.js';
import { walk, type Handler, type Node } from './tree.js';

/** The route for a path starting with '/', its captured values written to `values`; or null. */
export type Matcher<T> = (path: string, values: string[]) => Handler<T> | null;

/**
 * Nodes emitted as code, at most. A node is ~150–300 characters of source; V8 stops optimizing a
 * function whose bytecode passes 60 KB, and a lookup in an unoptimized function is slower than the walk.
 */
const MAX_NODES = 160;
/** A node with more static children than this is walked (its Map finds the child at once). */
const MAX_INLINE_STATICS = 32;
/** From this many static children, dispatch on the segment's first char with a switch. */
const SWITCH_FROM = 4;
const SLASH = 47;

/** Makes a matcher from the references its code reads (handlers, walked nodes, compound parts). */
export type MatcherFactory = (...refs: unknown[]) => Matcher<never>;

/**
 * A matcher for the tree at `root`: generated code where the runtime allows `new Function`, else
 * the walk. `factories` keeps the code made so far by its source: trees of the same shape (one
 * route set under several methods) then share one function, and with it V8's feedback and
 * optimized code, instead of making the lookup's call site megamorphic.
 */
export function compileMatcher<T>(root: Node<T>, factories = new Map<string, MatcherFactory>()): Matcher<T> {
  try {
    const generator = new Generator<T>();
    const body = generator.node(root, 's0', 0, []);
    const source = `return function match(p, v) { const n = p.length; const s0 = 1; ${body} return null; };`;
    let make = factories.get(source);
    if (!make) factories.set(source, (make = new Function('H', 'N', 'C', 'walk', 'matchCompound', source) as MatcherFactory));
    return make(generator.handlers, generator.nodes, generator.parts, walk, matchCompound) as Matcher<T>;
  } catch {
    // A content security policy that forbids `new Function`.
    return (path, values) => walk(root, path, 1, values, 0);
  }
}

/**
 * Writes the code of a tree. `s` names the variable that holds where the node's segment starts.
 * `captures` are the expressions of the values the path to the node captured: segment bounds sit
 * in variables of the enclosing blocks, so values are sliced only when a route is returned (a
 * branch that fails slices nothing). Code for a node returns the route it finds, or falls through
 * so the caller tries its next choice.
 */
class Generator<T> {
  readonly handlers: Handler<T>[] = [];
  readonly nodes: Node<T>[] = [];
  readonly parts: Part[][] = [];
  private readonly handlerIds = new Map<Handler<T>, number>();
  private emitted = 0;

  node(node: Node<T>, s: string, depth: number, captures: string[]): string {
    const statics = node.statics;
    if (++this.emitted > MAX_NODES || statics.length > MAX_INLINE_STATICS) {
      this.nodes.push(node);
      const walked = `walk(N[${this.nodes.length - 1}], p, ${s}, v, ${captures.length})`;
      return `{ ${store(captures)} const r = ${walked}; if (r !== null) return r; }`;
    }
    let code = this.statics(statics, s, depth, captures);
    const e = `e${depth}`;
    if (node.compound.length > 0 || node.param !== null) code += `let ${e} = p.indexOf('/', ${s}); if (${e} === -1) ${e} = n;`;
    node.compound.forEach(({ parts, node: next }, i) => {
      const q = `q${depth}_${i}`;
      this.parts.push(parts);
      const captured = parts.filter((part) => 'param' in part).map((_, j) => `${q}[${j}]`);
      const test = `matchCompound(C[${this.parts.length - 1}], p, ${s}, ${e}, ${q})`;
      code += `{ const ${q} = []; if (${test}) { ${this.after(next, e, depth, [...captures, ...captured])} } }`;
    });
    if (node.param !== null) {
      code += `if (${e} > ${s}) { ${this.after(node.param, e, depth, [...captures, `p.slice(${s}, ${e})`])} }`;
    }
    if (node.wildcard !== null) code += this.found(node.wildcard, [...captures, `p.slice(${s})`]);
    return code;
  }

  /** Each static child: its text compared char by char, then the segment must end ('/' or the path's end). */
  private statics(statics: [string, Node<T>][], s: string, depth: number, captures: string[]): string {
    const t = `t${depth}`;
    const child = ([text, next]: [string, Node<T>]) => {
      const chars = Array.from({ length: text.length }, (_, i) => `p.charCodeAt(${s}${i ? ` + ${i}` : ''}) === ${text.charCodeAt(i)}`);
      const test = chars.length ? chars.join(' && ') : 'true';
      return `if (${test}) { const ${t} = ${s} + ${text.length}; if (${t} === n || p.charCodeAt(${t}) === ${SLASH}) { ${this.after(next, t, depth, captures)} } }`;
    };
    if (statics.length < SWITCH_FROM) return statics.map(child).join('');
    const byFirst = new Map<number, [string, Node<T>][]>();
    let code = '';
    for (const entry of statics) {
      if (entry[0] === '') code += child(entry);
      else byFirst.set(entry[0].charCodeAt(0), [...(byFirst.get(entry[0].charCodeAt(0)) ?? []), entry]);
    }
    const cases = [...byFirst].map(([first, entries]) => `case ${first}: { ${entries.map(child).join('')} break; }`);
    return `${code}switch (p.charCodeAt(${s})) { ${cases.join(' ')} }`;
  }

  /** After a segment that ends at `e`: at the path's end the node's route, else its next segment. */
  private after(next: Node<T>, e: string, depth: number, captures: string[]): string {
    const route = next.route ? this.found(next.route, captures) : '';
    const more = next.statics.length > 0 || next.compound.length > 0 || next.param !== null || next.wildcard !== null;
    if (!more) return route ? `if (${e} === n) { ${route} }` : '';
    const s = `s${depth + 1}`;
    return `if (${e} === n) { ${route} } else { const ${s} = ${e} + 1; ${this.node(next, s, depth + 1, captures)} }`;
  }

  /** Returns `handler`, with the captured values stored for its params. */
  private found(handler: Handler<T>, captures: string[]): string {
    let id = this.handlerIds.get(handler);
    if (id === undefined) {
      id = this.handlers.push(handler) - 1;
      this.handlerIds.set(handler, id);
    }
    return `${store(captures)} return H[${id}];`;
  }
}

/** Stores the captured values in v[0..] (where the params builder and the walk read them). */
function store(captures: string[]): string {
  return captures.map((value, i) => `v[${i}] = ${value};`).join(' ');
}
