// Where a head went wrong, for the error message: the wasm parser reports only a code, so on the
// error path (never the hot one) this walks the head once more to name the byte, its offset and
// the field it is in: `invalid byte 0x00 in the value of "x-a" at offset 37`.
import type { HttpParseErrorCode } from './errors.js';

const CR = 13;
const LF = 10;
const COLON = 58;
/** tchar (RFC 9110 §5.6.2). */
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

const hex = (byte: number) => `0x${byte.toString(16).padStart(2, '0')}`;
const isFieldValueByte = (b: number) => b === 9 || (b >= 0x20 && b !== 0x7f);
const text = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, Math.min(to, from + 64)));

/** A sentence for `code` about bytes[start, end) (the head so far), or undefined when nothing more can be said. */
export function explainHeadError(code: HttpParseErrorCode, bytes: Uint8Array, start: number, end: number): string | undefined {
  // Line by line: [lineStart, lineEnd) without its CR LF.
  let at = start;
  let line = 0;
  while (at < end) {
    let lf = bytes.indexOf(LF, at);
    if (lf < 0 || lf >= end) lf = end;
    const lineEnd = lf > at && bytes[lf - 1] === CR ? lf - 1 : lf;
    const offset = (i: number) => i - start;
    if (code === 'ERR_INVALID_NEWLINE') {
      for (let i = at; i < lineEnd; i++) if (bytes[i] === CR) return `a CR not followed by LF at offset ${offset(i)}`;
      if (lf < end && lineEnd === lf) return `a bare LF (no CR before it) at offset ${offset(lf)}`;
    }
    if (line === 0) {
      const problem = requestLineProblem(code, bytes, at, lineEnd);
      if (problem) return `${problem[0]} at offset ${offset(problem[1])} of the request line`;
    } else if (lineEnd > at && code === 'ERR_INVALID_HEADER') {
      const colon = bytes.indexOf(COLON, at);
      if (colon < 0 || colon >= lineEnd)
        return `a field line without a colon at offset ${offset(at)}: ${JSON.stringify(text(bytes, at, lineEnd))}`;
      if (colon === at) return `an empty field name at offset ${offset(at)}`;
      for (let i = at; i < colon; i++) {
        if (!TCHAR.test(String.fromCharCode(bytes[i])))
          return `invalid byte ${hex(bytes[i])} in the field name ${JSON.stringify(text(bytes, at, colon))} at offset ${offset(i)}`;
      }
      const name = text(bytes, at, colon);
      for (let i = colon + 1; i < lineEnd; i++) {
        if (!isFieldValueByte(bytes[i]))
          return `invalid byte ${hex(bytes[i])} in the value of ${JSON.stringify(name)} at offset ${offset(i)}`;
      }
    }
    if (lineEnd === at && line > 0) break; // the empty line ends the head
    at = lf + 1;
    line++;
  }
  return undefined;
}

/** The first byte of the request line that breaks `code`'s rule, with what is wrong. */
function requestLineProblem(code: HttpParseErrorCode, bytes: Uint8Array, from: number, to: number): [string, number] | undefined {
  const firstSpace = bytes.indexOf(32, from);
  const methodEnd = firstSpace < 0 || firstSpace > to ? to : firstSpace;
  if (code === 'ERR_INVALID_METHOD') {
    for (let i = from; i < methodEnd; i++)
      if (!TCHAR.test(String.fromCharCode(bytes[i]))) return [`invalid byte ${hex(bytes[i])} in the method`, i];
    return undefined;
  }
  if (code === 'ERR_INVALID_TARGET') {
    for (let i = methodEnd + 1; i < to && bytes[i] !== 32; i++) {
      if (bytes[i] <= 0x20 || bytes[i] >= 0x7f || bytes[i] === 0x5c) return [`invalid byte ${hex(bytes[i])} in the target`, i];
    }
    if (bytes[methodEnd + 1] === 32) return ['two spaces before the target', methodEnd + 1];
  }
  return undefined;
}
