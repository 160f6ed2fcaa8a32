// Entry point for `deno run`: prints the parser cases as JSON.
import { runParserCases } from './parser-cases.js';

console.log(JSON.stringify(runParserCases()));
