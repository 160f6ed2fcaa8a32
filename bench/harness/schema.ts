// The result file format as a JSON Schema, and the check every file from outside goes through
// (uploads to the dashboard, files given to `compare`). Ajv compiles it once; an invalid file is
// refused with the first few places it is wrong.
import { Ajv } from 'ajv';
import { RESULT_SCHEMA, type ResultFile } from './types.js';

const finite = { type: 'number' } as const;
const text = { type: 'string', maxLength: 1000 } as const;

/** JSON Schema (draft 2020-12 subset Ajv's default build understands) of `wirespeed-bench/1`. */
export const resultJsonSchema = {
  $id: 'https://wirespeed.dev/schema/wirespeed-bench-1.json',
  type: 'object',
  required: ['schema', 'createdAt', 'fingerprint', 'options', 'cases'],
  properties: {
    schema: { const: RESULT_SCHEMA },
    createdAt: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' },
    fingerprint: {
      type: 'object',
      required: [
        'cpuModel',
        'cores',
        'memoryBytes',
        'os',
        'arch',
        'runtime',
        'runtimeVersion',
        'userAgent',
        'wasm',
        'gitCommit',
        'timerResolutionNs',
      ],
      properties: {
        cpuModel: text,
        cores: { type: 'integer', minimum: 1 },
        memoryBytes: { type: 'number', minimum: 0 },
        os: text,
        arch: text,
        runtime: { enum: ['node', 'deno', 'browser'] },
        runtimeVersion: text,
        userAgent: text,
        wasm: {
          type: 'object',
          required: ['simd', 'threads', 'bulkMemory', 'referenceTypes'],
          properties: {
            simd: { type: 'boolean' },
            threads: { type: 'boolean' },
            bulkMemory: { type: 'boolean' },
            referenceTypes: { type: 'boolean' },
          },
        },
        gitCommit: { type: ['string', 'null'], maxLength: 64 },
        crossOriginIsolated: { type: 'boolean' },
        timerResolutionNs: { type: 'number', minimum: 0 },
      },
    },
    options: {
      type: 'object',
      required: ['quick', 'isolate', 'warmupMs', 'minTimeMs'],
      properties: { quick: { type: 'boolean' }, isolate: { type: 'boolean' }, warmupMs: finite, minTimeMs: finite },
    },
    cases: {
      type: 'array',
      minItems: 1,
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['suite', 'group', 'impl', 'baseline', 'unit', 'samples', 'stats'],
        properties: {
          suite: text,
          group: text,
          impl: text,
          baseline: { type: 'boolean' },
          unit: { const: 'ns/op' },
          samples: { type: 'array', minItems: 1, maxItems: 10_000_000, items: { type: 'number', exclusiveMinimum: 0 } },
          stats: {
            type: 'object',
            required: ['n', 'min', 'max', 'mean', 'median', 'ciLow', 'ciHigh', 'p75', 'p99', 'stddev'],
            properties: Object.fromEntries(
              ['n', 'min', 'max', 'mean', 'median', 'ciLow', 'ciHigh', 'p75', 'p99', 'stddev'].map((k) => [k, finite]),
            ),
          },
          metrics: { type: 'object', additionalProperties: finite },
        },
      },
    },
  },
} as const;

/** A file that is not a valid result file; `message` says where and why. */
export class ResultFileError extends Error {}

const validate = new Ajv({ allErrors: true }).compile(resultJsonSchema);

/** `value` as a ResultFile, or throws ResultFileError naming the first problems found. */
export function checkResultFile(value: unknown): ResultFile {
  if (validate(value)) {
    const file = value as unknown as ResultFile;
    // One thing a schema cannot say: each implementation appears once per group.
    const seen = new Set<string>();
    for (const c of file.cases) {
      const key = `${c.suite}\0${c.group}\0${c.impl}`;
      if (seen.has(key)) throw new ResultFileError(`case "${c.suite} / ${c.group} / ${c.impl}" appears twice`);
      seen.add(key);
    }
    return file;
  }
  const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(the file)'} ${e.message ?? 'is invalid'}`);
  throw new ResultFileError(`not a ${RESULT_SCHEMA} result file: ${problems.join('; ')}`);
}
