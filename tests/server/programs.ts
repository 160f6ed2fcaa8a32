// Random programs run alike on a class of ours and on the runtime's (LightResponse and Response,
// the lazy Request and Request): what each step gives is compared, its value or its error's class.

/** A program's steps by name, each working on the program's state. */
export type Operations<State> = Record<string, (state: State) => unknown>;

/** What each step gives: `name=value`, or `name!ErrorClass`; a state that cannot be made gives `new!ErrorClass`. */
export async function runProgram<State>(make: () => State, operations: Operations<State>, steps: readonly string[]): Promise<string[]> {
  let state: State;
  try {
    state = make();
  } catch (error) {
    return [`new!${(error as Error).constructor.name}`];
  }
  const out: string[] = [];
  for (const step of steps) {
    try {
      out.push(`${step}=${JSON.stringify(await operations[step]!(state)) ?? 'undefined'}`);
    } catch (error) {
      out.push(`${step}!${(error as Error).constructor.name}`);
    }
  }
  return out;
}

/** A body's stream read to its end, as latin1 text (null when there is none); a read that fails throws. */
export async function readBodyStream(holder: { readonly body: ReadableStream<Uint8Array> | null }): Promise<string | null> {
  const reader = holder.body?.getReader();
  if (!reader) return null;
  let out = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) out += Buffer.from(chunk.value).toString('latin1');
  return out;
}
