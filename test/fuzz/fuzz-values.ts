import fc from 'fast-check';
import type { Schema } from './openapi-routes.js';

/** A number written into the JSON text as is (`1e309` parses to Infinity, `-0` to minus zero). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** Unicode edges: NUL, lone surrogates, BOM, RTL override, combining marks, non-characters, astral. */
export const unicodeEdge = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e',
  'e\u0301',
  '\uffff',
  '🦄',
  '\u2028',
  'Å',
  '%00',
  '%2F',
  '../..',
  '<script>',
  "' or 1=1 --",
);

/**
 * The huge strings, built once: a string drawn anew each time (`'y'.repeat(…)` in a `map`) cost a
 * megabyte of allocation and copying every time one was drawn, again for each scan of it (percent
 * encoding, JSON text, the URL), where one string reused is flat and its encodings are cached.
 */
const HUGE = [10_000, 1_000_000].map((n) => 'y'.repeat(n));

/** Strings: short ones, unicode edges, and (rarely) huge ones around the body limits. */
export const nastyString = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 4, arbitrary: unicodeEdge },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'x'.repeat(257), 'x'.repeat(5000)) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
);

/** Numbers JSON can carry but JavaScript mangles, plus ordinary edge values. */
export const nastyNumber = fc.oneof(
  fc
    .constantFrom('1e309', '-1e309', '-0', '1e-400', '9007199254740993', '0.1', '1E2', '-1')
    .map((t) => new RawNumber(t)),
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, 1000, 3_600_001),
);

/** Anything at all, for type swaps. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.constantFrom(null, true, false, [], {}, [[[[]]]], { $ne: null }, { __proto__: { admin: true } }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A value fitting `schema` most of the time (enums, types, nested objects), mutated otherwise. */
export function valueFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return anyValue;
  const alternatives = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  const fitting: fc.Arbitrary<unknown> = alternatives?.length
    ? fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1)))
    : schema.enum
      ? fc.constantFrom(...schema.enum)
      : schema.type === 'object' || schema.properties
        ? objectFor(schema, depth)
        : schema.type === 'array'
          ? fc.array(valueFor(schema.items ?? {}, depth + 1), { maxLength: 4 })
          : schema.type === 'integer' || schema.type === 'number'
            ? fc.oneof(
                fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 10_000, 2 ** 31) }),
                nastyNumber,
              )
            : schema.type === 'boolean'
              ? fc.boolean()
              : fc.oneof(
                  { weight: 3, arbitrary: fc.constantFrom('a', 'acme', 'invoice.create', 'X-1', 'worker') },
                  { weight: 2, arbitrary: nastyString },
                );
  return fc.oneof({ weight: 8, arbitrary: fitting }, { weight: 1, arbitrary: anyValue });
}

/** An object of `schema`'s properties: some dropped (required ones too), some extra ones added. */
function objectFor(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  return fc
    .record({
      values: fc.tuple(...props.map(([, s]) => valueFor(s, depth + 1))),
      keep: fc.array(fc.boolean(), { minLength: props.length, maxLength: props.length }),
      extra: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constantFrom('extra', 'constructor', '__proto__', 'KEY', ''), anyValue),
        },
      ),
    })
    .map(({ values, keep, extra }) => {
      const out: Record<string, unknown> = {};
      props.forEach(([name], i) => {
        if (keep[i] || (required.has(name) && keep[(i + 1) % keep.length])) out[name] = values[i];
      });
      if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true });
      return out;
    });
}

/** JSON text of `value`, writing {@link RawNumber}s verbatim. */
export function toJsonText(value: unknown): string {
  let raw = false;
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (!(v instanceof RawNumber)) return v;
    raw = true;
    return `\u0000RAW${v.text}\u0000`;
  });
  // Without a RawNumber there is nothing to unquote: the scan (of bodies up to 1 MB) is skipped.
  return raw ? (text ?? 'null').replace(/"\\u0000RAW([^"\\]+)\\u0000"/g, '$1') : (text ?? 'null');
}

/** Bodies that are not what the route expects at all. */
export const rawBodies = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    '{',
    '{"a":1,"a":2}',
    '['.repeat(2000) + ']'.repeat(2000),
    '{"a":'.repeat(500) + '1' + '}'.repeat(500),
    'null',
    '"string"',
    '{"__proto__":{"polluted":1}}',
    '\ufeff{}',
    '{"x":"\\ud800"}',
    '1e309',
  ),
);
