// LightResponse against the runtime's Response, on random programs: a body of every kind the
// constructor takes (and some it refuses), an init of every shape, then up to six operations an
// app or a middleware does (read the fields and the body every way, read it again, clone, re-wrap
// with `new Response(res.body, res)`, tee the stream, change the fields, the statics). Each
// program runs on both; what each step gives (its value, or the class of its error) must be the
// same. It found a body read twice without an error once a member had gone to the real Response
// (the real one was made with no body: `text()` after `text()` and `formData()` gave ""), the body
// stream of a read response still readable (and so re-wrappable) where the standard leaves it
// locked, a deleted Content-Type back after that hand-over, and `blob()` typed with the field's
// text where the standard gives the MIME type it parses out of it.
import { describe, expect, it } from 'vitest';
// From the Node adapter, as users take it (it sets how a stream another reader disturbed is found).
import { LightResponse, RuntimeResponse } from '../../src/server/node.js';
import { compareResponsePrograms } from './light-response-programs.js';

const PROGRAMS = 4000;

describe('LightResponse against the runtime Response, on random programs', () => {
  it(`does what the runtime Response does, step for step, on ${PROGRAMS} programs`, async () => {
    const { differences, errors } = await compareResponsePrograms(LightResponse, RuntimeResponse, { seed: 0x11e, count: PROGRAMS });
    expect(differences).toEqual([]);
    // The programs reach the errors as often as the values.
    expect(errors).toBeGreaterThan(PROGRAMS / 4);
  });
});
