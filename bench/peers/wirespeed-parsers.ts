// wirespeed's parser drivers for the `parser` suite: pure, so they run in browsers too (the Node
// peers are in http1-parsers.ts).
import { parseRequest, RequestParser } from '../../src/http1/index.js';

export type ParserDriver = (input: Uint8Array) => () => number;

/** wirespeed, materialising every string (the fair end-to-end comparison). */
export const wirespeedStrings: ParserDriver = (input) => {
  let sink = 0;
  const parser = new RequestParser({
    onHead(head) {
      let n = head.method.length + head.url.length;
      for (let i = 0; i < head.headerCount; i++) n += head.headerName(i).length + head.headerValue(i).length;
      sink += n;
    },
    onBody(chunk) {
      sink += chunk.length;
    },
    onTrailers(trailers) {
      for (const [name, value] of trailers) sink += name.length + value.length;
    },
  });
  return () => {
    parser.execute(input);
    return sink;
  };
};

/** wirespeed's lazy path: framing and validation only, strings never made. */
export const wirespeedLazy: ParserDriver = (input) => {
  let sink = 0;
  const parser = new RequestParser({
    onHead(head) {
      sink += head.headerCount;
    },
    onBody(chunk) {
      sink += chunk.length;
    },
  });
  return () => {
    parser.execute(input);
    return sink;
  };
};

/** The README's first API: `parseRequest`, one call per message, every string read. */
export const wirespeedParseRequest: ParserDriver = (input) => {
  return () => {
    let n = 0;
    for (let at = 0; at < input.length;) {
      const request = parseRequest(at ? input.subarray(at) : input);
      n += request.method.length + request.url.length + request.body.length;
      for (const [name, value] of request.headers) n += name.length + value.length;
      at += request.bytesConsumed;
    }
    return n;
  };
};
