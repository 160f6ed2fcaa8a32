// Apps send the same few field names again and again: a check that a string passes is remembered,
// so each string an app reuses is tested once. Strings are immutable, so a string that passed once
// always does. (Only for strings that are mostly constants: remembering strings made per request
// costs more than testing them, see fields.ts.)

/** The most strings remembered; then the memory starts over, so strings seen only once cannot crowd out those seen all the time. */
const MAX_REMEMBERED = 1024;
/** Longer strings are always tested: hashing a fresh long string costs about what the test does. */
const MAX_REMEMBERED_LENGTH = 128;

/** A string test whose passes are remembered. */
export class CheckedStrings {
  private readonly passed = new Set<string>();

  constructor(private readonly test: (text: string) => boolean) {}

  /** Whether `text` passes the test: a set lookup for a string that passed before. */
  passes(text: string): boolean {
    // (A caller in JavaScript may pass a number or undefined: tested as before, not remembered.)
    if (typeof text !== 'string' || text.length > MAX_REMEMBERED_LENGTH) return this.test(text);
    if (this.passed.has(text)) return true;
    if (!this.test(text)) return false;
    if (this.passed.size >= MAX_REMEMBERED) this.passed.clear();
    this.passed.add(text);
    return true;
  }
}
