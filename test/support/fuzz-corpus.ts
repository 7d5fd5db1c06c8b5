/**
 * A deterministic corpus of malformed input for the API fuzz test: path ids, query values, body values and
 * whole bodies (as JSON text, so prototype keys and deep nesting arrive exactly as an attacker sends them),
 * and a plausible base body per operation built from its documented schema.
 */
import type { OpenApiDocument, Operation } from './openapi.ts';

/** A small seeded PRNG (mulberry32): the same corpus on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` items of `list`, drawn without repetition by `random`. */
export function sample<T>(list: readonly T[], count: number, random: () => number): T[] {
  const pool = [...list];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return out;
}

const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const HUGE = 'x'.repeat(100_000);

/** Values for one field, as JSON text. */
export const VALUE_FRAGMENTS: readonly string[] = [
  'null',
  'true',
  '0',
  '-1',
  '1e308',
  '1.5',
  '""',
  '" "',
  '"\\t\\n \\u00a0"',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\u200b\\ufeff"',
  `"${HUGE}"`,
  `"${'é'.repeat(3000)}"`,
  '[]',
  '[1,"a",null,{}]',
  '{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"k\\u0000":"v"}',
  deepObject(200),
  deepArray(200),
  '"2024-02-30"',
  '"0000-01-01T00:00:00Z"',
  '"../../etc/passwd"',
  '"<script>alert(1)</script>"',
  '"{{ unclosed"',
  '"user@münchen.de"',
  '"a@b@c"',
  '"\\r\\nBcc: x@example.com"',
  '{"value":1,"persistent":false}',
  '["__proto__"]',
];

/** Whole bodies, as sent with Content-Type: application/json. */
export const BODY_FRAGMENTS: readonly string[] = [
  'null',
  '[]',
  '"text"',
  '1',
  'true',
  '{',
  '{"a":1,}',
  ' ',
  deepObject(100),
  deepArray(5000),
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"\\u0000":1}',
];

/** Path segments, URL-encoded as they appear in the request line. */
export const PATH_FRAGMENTS: readonly string[] = [
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(2000),
  '%00',
  'a%00b',
  '%20',
  '__proto__',
  'constructor',
  '%C3%A9',
  '%E0%A4%A',
  '...',
  '1',
  'null',
  `${'%F0%9F%92%A9'.repeat(50)}`,
];

/** Query values, URL-encoded. */
export const QUERY_FRAGMENTS: readonly string[] = [
  '',
  '%00',
  'a%00b',
  'x'.repeat(5000),
  '-1',
  '0',
  '101',
  '1e309',
  'NaN',
  'true',
  'yes',
  '%E0%A4%A',
  '__proto__',
  '%20%20',
  'eyJub3QiOiJhIGN1cnNvciJ9',
  '2024-02-30',
];

/** Query strings that are odd as a whole: repeated keys, prototype keys, brackets. */
export const QUERY_STRINGS: readonly string[] = [
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'limit=1&limit=2',
  '=x',
  '&&&',
  'a=%',
];

type Schema = Record<string, unknown>;

function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  return (doc.components?.schemas ?? {})[ref.replace('#/components/schemas/', '')] as Schema | undefined;
}

/** A plausible value for a JSON schema: required properties only, first enum values, sane strings. */
export function plausible(doc: OpenApiDocument, raw: Schema | undefined, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (!schema || depth > 6) return 'x';
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options) return plausible(doc, options.find((o) => resolve(doc, o)?.type !== 'null') ?? options[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, plausible(doc, props[name], depth + 1)]));
    }
    case 'array':
      return Number(schema.minItems ?? 0) > 0 ? [plausible(doc, schema.items as Schema, depth + 1)] : [];
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email' || schema.format === 'idn-email') return 'fuzz@example.com';
      if (schema.format === 'date-time') return '2099-01-01T00:00:00Z';
      return 'fuzz';
    default:
      return 'x';
  }
}

/** The JSON schema of an operation's body, and its property names. */
export function bodySchema(doc: OpenApiDocument, op: Operation): { schema: Schema | undefined; properties: string[] } {
  const raw = resolve(doc, op.requestBody?.content['application/json']?.schema);
  const object =
    ((raw?.anyOf ?? raw?.oneOf) as Schema[] | undefined)
      ?.map((o) => resolve(doc, o))
      .find((o) => o?.type === 'object') ?? raw;
  return { schema: raw, properties: Object.keys((object?.properties ?? {}) as Schema) };
}
