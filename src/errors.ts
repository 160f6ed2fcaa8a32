/** The base of wirespeed's errors: a stable `code` that callers and tests match on. */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string = code,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
