// The lazy Request a handler gets against the runtime's Request made from the same method, URL,
// fields and body, on random programs: up to six operations an app or a framework does (read the
// fields and the body every way, read it again, the stream, clone, copies with `new Request`,
// field changes, the members that go to a real Request). Each step must give the same value, or
// an error of the same class. Copies use the Request serve() installs (it takes lazy requests).
// It found, once the body was read: members that go to the real Request (`mode`, `referrer`,
// `cache`, ...) throwing a TypeError, since the real one was made from the read stream; `bodyUsed`
// false again after such a member, so the body could be cloned or copied; a copy
// (`new Request(url, request)`) taking the read body's stream; and a field changed after that
// hand-over missing from a copy.
import { describe, expect, it } from 'vitest';
import { compareRequestPrograms } from './request-programs.js';

const PROGRAMS = 4000;

describe("the server's lazy Request against the runtime Request, on random programs", () => {
  it(`does what the runtime Request does, step for step, on ${PROGRAMS} programs`, async () => {
    const { differences, errors } = await compareRequestPrograms({ seed: 0x4e9, count: PROGRAMS });
    expect(differences).toEqual([]);
    // The programs reach the errors (reads of a read body, bodies for GET) as well as the values.
    expect(errors).toBeGreaterThan(PROGRAMS / 5);
  });
});
