// Route patterns: '/static', '/users/:id', '/files/:name.:ext', '/assets/*'.
import { RouterError } from './errors.js';

/** One piece of a segment that mixes literal text and params, e.g. ':name' '.' ':ext'. */
export type Part = { literal: string } | { param: string };

/** One segment of a route pattern: static text, a parameter or a wildcard. */
export type Segment =
  | { kind: 'static'; text: string }
  | { kind: 'param'; name: string }
  | { kind: 'compound'; key: string; parts: Part[] }
  | { kind: 'wildcard' };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
/**
 * What a literal may hold: the pchar of RFC 3986 §3.3 (':' and '*' are pattern syntax). Anything
 * else never appears in a request path, so a route holding it could never match.
 */
const PATH_CHARS = /^(?:[A-Za-z0-9\-._~!$&'()+,;=@]|%[0-9A-Fa-f]{2})*$/;

function invalid(pattern: string, why: string): never {
  throw new RouterError('ERR_INVALID_PATTERN', `invalid route ${JSON.stringify(pattern)}: ${why}`);
}

/** Refuses literal text no request path holds, saying what the author likely meant. */
function checkLiteral(pattern: string, text: string): void {
  if (PATH_CHARS.test(text)) return;
  const bad = [...text].find((c, i) => !PATH_CHARS.test(c) && !(c === '%' && /^%[0-9A-Fa-f]{2}/.test(text.slice(i))))!;
  if (bad === '?') invalid(pattern, 'a route is a path: find() takes the path without its query string, so "?" never matches');
  if (bad === '%') invalid(pattern, '"%" must start a percent-encoded byte (%XX)');
  const code = bad.codePointAt(0)!;
  const shown = code < 0x21 || code === 0x7f ? `byte 0x${code.toString(16).padStart(2, '0')}` : JSON.stringify(bad);
  invalid(pattern, `${shown} is never in a request path (RFC 3986 §3.3): percent-encode it (${encodeURIComponent(bad)})`);
}

/** Splits a segment like ':name.:ext' or 'v:version' into literal and param parts. */
function parseCompound(pattern: string, text: string): Part[] {
  const parts: Part[] = [];
  let rest = text;
  while (rest) {
    const colon = rest.indexOf(':');
    if (colon !== 0) {
      const literal = colon === -1 ? rest : rest.slice(0, colon);
      checkLiteral(pattern, literal);
      parts.push({ literal });
      rest = rest.slice(literal.length);
      continue;
    }
    const name = NAME.exec(rest.slice(1))?.[0];
    if (!name) invalid(pattern, `a ':' must be followed by a param name in ${JSON.stringify(text)}`);
    // find-my-way's syntax, refused rather than matched literally (it would never match):
    // constraints belong in the handler (a 400 that says why, not a 404), optional params are two routes.
    const after = rest[1 + name.length];
    if (after === '(') invalid(pattern, `param constraints like ":${name}(…)" are not supported: check the value in the handler`);
    if (after === '?') invalid(pattern, `optional params like ":${name}?" are not supported: register the route with and without it`);
    // Two params with nothing between them could split their text in many ways.
    if (parts.at(-1) && 'param' in parts.at(-1)!) invalid(pattern, `params in ${JSON.stringify(text)} need a literal between them`);
    parts.push({ param: name });
    rest = rest.slice(1 + name.length);
  }
  return parts;
}

/** Splits a route pattern into segments; throws RouterError (ERR_INVALID_PATTERN) on a bad one. */
export function parsePattern(pattern: string): Segment[] {
  if (typeof pattern !== 'string') invalid(pattern, `a pattern must be a string, got ${typeof pattern}`);
  if (!pattern.startsWith('/')) invalid(pattern, 'it must start with "/"');
  const texts = pattern.slice(1).split('/');
  const segments: Segment[] = texts.map((text, i): Segment => {
    if (text === '*') {
      if (i !== texts.length - 1) invalid(pattern, 'a wildcard must be the last segment');
      return { kind: 'wildcard' };
    }
    if (text.includes('*')) invalid(pattern, 'a wildcard must be a whole segment');
    if (!text.includes(':')) return (checkLiteral(pattern, text), { kind: 'static', text });
    const parts = parseCompound(pattern, text);
    if (parts.length === 1 && 'param' in parts[0]) return { kind: 'param', name: parts[0].param };
    return { kind: 'compound', key: parts.map((p) => ('param' in p ? ':' : p.literal)).join(''), parts };
  });
  const names = paramNames(segments);
  if (new Set(names).size !== names.length) invalid(pattern, 'a param name is used twice');
  return segments;
}

/** Param names in the order their values are captured. */
export function paramNames(segments: Segment[]): string[] {
  const names: string[] = [];
  for (const s of segments) {
    if (s.kind === 'param') {
      names.push(s.name);
    } else if (s.kind === 'compound') {
      for (const p of s.parts) if ('param' in p) names.push(p.param);
    } else if (s.kind === 'wildcard') {
      names.push('*');
    }
  }
  return names;
}

/**
 * Matches `parts` against path[start..end) and pushes the param values. A param takes the
 * shortest non-empty text up to the next literal (so ':name.:ext' on 'a.tar.gz' gives 'a' and
 * 'tar.gz'); the last param takes the rest of the segment.
 */
export function matchCompound(parts: Part[], path: string, start: number, end: number, values: string[]): boolean {
  let pos = start;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if ('literal' in part) {
      if (!path.startsWith(part.literal, pos) || pos + part.literal.length > end) return false;
      pos += part.literal.length;
      continue;
    }
    const next = parts[i + 1] as { literal: string } | undefined;
    const stop = next ? path.indexOf(next.literal, pos + 1) : end;
    if (stop === -1 || stop > end || stop <= pos) return false;
    values.push(path.slice(pos, stop));
    pos = stop;
  }
  return pos === end;
}
