// The result file format as a JSON Schema, and the check every file from outside goes through
// (uploads to the dashboard, files given to `compare`). The schema uses a small subset of JSON
// Schema, walked by `problemsOf` below: Ajv did the same for 2.9 MB of dependencies that every
// library user installed, for one check in the CLI. An invalid file is refused with the first few
// places it is wrong, in Ajv's words.
import { RESULT_SCHEMA, type ResultFile } from './types.js';

const finite: JsonSchema = { type: 'number' };
const text: JsonSchema = { type: 'string', maxLength: 1000 };

/** JSON Schema (the draft 2020-12 subset `JsonSchema` lists) of `wirespeed-bench/1`. */
export const resultJsonSchema: JsonSchema = {
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
      properties: { quick: { type: 'boolean' }, isolate: { type: 'boolean' }, warmupMs: finite, minTimeMs: finite, filter: text },
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
};

/** A file that is not a valid result file; `message` says where and why. */
export class ResultFileError extends Error {}

/** The JSON Schema keywords the result schema uses (and `problemsOf` checks). */
export interface JsonSchema {
  $id?: string;
  type?: JsonType | JsonType[];
  const?: unknown;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maxLength?: number;
  pattern?: string;
}

type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

const MAX_PROBLEMS = 5;

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function hasType(value: unknown, type: JsonType): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** Where `value` breaks `schema`, as "/path message" lines (at most `MAX_PROBLEMS`). */
function problemsOf(schema: JsonSchema, value: unknown, path = '', problems: string[] = []): string[] {
  const at = path || '(the file)';
  const fail = (message: string) => void (problems.length < MAX_PROBLEMS && problems.push(`${at} ${message}`));
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasType(value, type))) return (fail(`must be ${types.join(',')}`), problems);
  }
  if ('const' in schema && value !== schema.const) fail(`must be equal to constant ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) fail(`must be equal to one of the allowed values (${schema.enum.join(', ')})`);
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && value.length > schema.maxLength) fail(`must NOT have more than ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) fail(`must match pattern "${schema.pattern}"`);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail('must be a finite number');
    if (schema.minimum !== undefined && value < schema.minimum) fail(`must be >= ${schema.minimum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) fail(`must be > ${schema.exclusiveMinimum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail(`must NOT have fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail(`must NOT have more than ${schema.maxItems} items`);
    if (schema.items)
      for (let i = 0; i < value.length && problems.length < MAX_PROBLEMS; i++) problemsOf(schema.items, value[i], `${path}/${i}`, problems);
  } else if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (object[key] === undefined) fail(`must have required property '${key}'`);
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined || problems.length >= MAX_PROBLEMS) continue;
      // Own keys only: a file's "__proto__" or "constructor" must not pick a schema off Object.prototype.
      const own = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      const itemSchema = own ?? schema.additionalProperties;
      if (itemSchema) problemsOf(itemSchema, item, `${path}/${key}`, problems);
    }
  }
  return problems;
}

/** The latency percentiles a load client reports, in ms. */
const LATENCY_PERCENTILES = new Set(['latencyP50Ms', 'latencyP75Ms', 'latencyP90Ms', 'latencyP99Ms']);

/**
 * `value` as a ResultFile, or throws ResultFileError naming the first problems found. A latency
 * percentile of 0 from a wrk run (`clientWrk` 1) is dropped from the file read: it is wrk's "none"
 * (see wrkPercentile in load.ts), which files written before 2026-11-27 kept as 0 ms. (autocannon
 * gives whole milliseconds, so its 0 is a latency under 1 ms, and stays.)
 */
export function checkResultFile(value: unknown): ResultFile {
  const problems = problemsOf(resultJsonSchema, value);
  if (problems.length > 0) throw new ResultFileError(`not a ${RESULT_SCHEMA} result file: ${problems.join('; ')}`);
  const file = value as ResultFile;
  // One thing a schema cannot say: each implementation appears once per group.
  const seen = new Set<string>();
  for (const c of file.cases) {
    const key = `${c.suite}\0${c.group}\0${c.impl}`;
    if (seen.has(key)) throw new ResultFileError(`case "${c.suite} / ${c.group} / ${c.impl}" appears twice`);
    seen.add(key);
    if (c.metrics?.clientWrk === 1)
      c.metrics = Object.fromEntries(Object.entries(c.metrics).filter(([name, v]) => v !== 0 || !LATENCY_PERCENTILES.has(name)));
  }
  return file;
}
