/** The base of wirespeed's errors: a stable `code` that callers and tests match on. */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string = code,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** `Name [CODE]: message`, so a log line says both what and which. */
  override toString(): string {
    return this.message === this.code ? `${this.name} [${this.code}]` : `${this.name} [${this.code}]: ${this.message}`;
  }
}

/** An argument of the wrong type: `code` ERR_INVALID_ARG_TYPE, the message says what was expected. */
export class InvalidArgumentError extends TypeError {
  readonly code = 'ERR_INVALID_ARG_TYPE';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgumentError';
  }
}

/** What `value` is, for an error message: `a string`, `an ArrayBuffer`, `null`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') {
    const name = (value as object).constructor?.name ?? 'Object';
    return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`;
  }
  return typeof value === 'string' ? 'a string' : typeof value === 'number' ? `the number ${value}` : `a ${typeof value}`;
}

/** Throws InvalidArgumentError unless `value` is a Uint8Array (a Node Buffer is one). */
export function expectBytes(value: unknown, what: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new InvalidArgumentError(`${what} must be a Uint8Array, got ${typeName(value)}`);
}

/** An option of the wrong type, or with a name no option has. `option` names it. */
export class InvalidOptionError extends TypeError {
  readonly code = 'ERR_INVALID_OPTION';
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidOptionError';
  }
}

/** The known name closest to `name` (a typo such as `prot`), if one is close. */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/**
 * Throws InvalidOptionError unless `options` is an object whose every key is one of `known`,
 * naming a near miss. A misspelt limit (`maxHeader: 20`) was ignored, and its default held unseen.
 * `owner` says whose options they are in messages; `path`, where they sit (`http2`: the error
 * names `http2.maxConcurentStreams`).
 */
export function checkOptionNames(options: unknown, known: readonly string[], owner: string, path = ''): asserts options is object {
  if (options === null || typeof options !== 'object') {
    throw new InvalidOptionError(path || 'options', `${owner} takes an options object, got ${typeName(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const hint = closest(name, known);
    throw new InvalidOptionError(
      path ? `${path}.${name}` : name,
      `${owner} has no option "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}`,
    );
  }
}

/** An option whose value is outside its range. `option` names it. */
export class OptionRangeError extends RangeError {
  readonly code = 'ERR_OPTION_OUT_OF_RANGE';
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
    this.name = 'OptionRangeError';
  }
}
