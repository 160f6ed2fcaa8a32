// Argument parsing and the CLI's two kinds of error: a usage error (exit 2: the command line is
// wrong) and a plain one (exit 1: the command could not do its work). Both print as one line.

/** The command line is wrong; the message says how, and the command's --help says more. */
export class UsageError extends Error {}

/** The command could not do its work; the message says what went wrong and what to do. */
export class CliError extends Error {}

/** The option every command has. */
export const HELP_OPTION = { type: 'boolean', short: 'h' } as const;

/**
 * Runs a command's `parseArgs`, turning node's parse errors into UsageErrors ("unknown option
 * '--x'", "option '--out <value>' argument missing").
 */
export function parsingArgs<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (!code?.startsWith('ERR_PARSE_ARGS')) throw error;
    // node: "Unknown option '--x'. To specify a positional argument starting with a '-', ..." → the first sentence.
    throw new UsageError(message.split(/\.\s/)[0].replace(/^./, (c) => c.toLowerCase()));
  }
}

/** A number option, or a UsageError naming it. */
export function numberOption(name: string, value: string, { min = -Infinity, integer = false } = {}): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < min || (integer && !Number.isInteger(number)))
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'}${min > -Infinity ? ` >= ${min}` : ''}, not "${value}"`);
  return number;
}
