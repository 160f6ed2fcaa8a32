// Entry point for `deno run`: tries every bad option of option-cases.ts on wirespeed/deno and
// prints what each threw, as JSON.
import { serve } from '../../src/server/deno.js';
import { describeError, optionCases } from './option-cases.js';

const results = optionCases.map((c) => {
  try {
    serve(c.options() as Parameters<typeof serve>[0]);
    return { what: c.what, error: 'none', code: '', option: '', message: '' };
  } catch (error) {
    return { what: c.what, ...describeError(error) };
  }
});
console.log(JSON.stringify(results));
