import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseExactJson } from '../../src/common/json-body.js';
import { ProblemException } from '../../src/common/problem.exception.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MIB = 1024 * 1024;

function refusal(text: string): unknown {
  try {
    parseExactJson(text);
  } catch (err) {
    return (err as ProblemException).problem;
  }
  throw new Error(`accepted: ${text}`);
}

it('a parsed body holds about its own size, not ~30 times it (long strings kept flat)', () => {
  // lossless-json builds each string one character at a time (`result += text[i]`): a V8 rope of
  // one 32-byte node per character, so a 16 MiB batch of 30 000-character payloads stayed ~450 MiB
  // of heap while parsed and handled, and two at once broke the batch flood's 1 GiB bound.
  const filler = 'x'.repeat(30_000);
  const text = JSON.stringify({
    claims: Array.from({ length: 128 }, (_, i) => ({ i, payload: { filler } })),
  });
  gc();
  const before = process.memoryUsage().heapUsed;
  const parsed = parseExactJson(text) as { claims: { payload: { filler: string } }[] };
  gc();
  const held = process.memoryUsage().heapUsed - before;
  expect(parsed.claims[127]!.payload.filler).toBe(filler);
  expect(held).toBeLessThan(3 * text.length + 2 * MIB);
});

it('refuses what it refused before: inexact numbers, duplicate members, invalid JSON, reserved names', () => {
  expect(refusal('{"a": 12345678901234567890}')).toMatchObject({
    status: 400,
    type: expect.stringContaining('invalid-json'),
  });
  expect(JSON.stringify(refusal('{"a": 12345678901234567890}'))).toContain('cannot be represented exactly');
  expect(JSON.stringify(refusal('{"a": 1, "b": {"c": 1, "c": 2}}'))).toContain("Duplicate key 'c'");
  expect(JSON.stringify(refusal('{"a\\u0062": 1, "ab": 2}'))).toContain("Duplicate key 'ab'");
  expect(refusal('{"a": 1,}')).toMatchObject({ status: 400 });
  expect(refusal('{"__proto__": {"x": 1}}')).toMatchObject({ status: 400 });
  expect(refusal('{"a": [1, 2, {"constructor": 1}]}')).toMatchObject({ status: 400 });
});

it('accepts what it accepted before, with the same values', () => {
  const text =
    '{"a": [1, -0.5, 1e3, 9007199254740991, "x\\"y", {"k": "v", "l": null}], "b": true, "a2": {"a": 1, "a": 1}}';
  expect(parseExactJson(text)).toEqual({
    a: [1, -0.5, 1000, 9007199254740991, 'x"y', { k: 'v', l: null }],
    b: true,
    a2: { a: 1 },
  });
  expect(parseExactJson('"plain"')).toBe('plain');
  expect(parseExactJson(' 12 ')).toBe(12);
});
