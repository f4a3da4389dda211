import { createHash } from 'node:crypto';
import { payloadFingerprint, type JsonValue } from '../../src/ledger/index.js';

/** Payloads as they arrive: JSON text, parsed. */
const fp = (jsonText: string): string => payloadFingerprint(JSON.parse(jsonText) as JsonValue);
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

const COMPACT =
  '{"customer":{"address":{"city":"Berlin","zip":"10115"},"name":"Ada"},"lines":[{"qty":1,"sku":"A-1"},{"qty":2,"sku":"B-2"}],"total":49.5}';

const REORDERED_PRETTY = `
{
  "total": 49.5,
  "lines": [
    { "sku": "A-1", "qty": 1 },
    {
      "sku": "B-2",
      "qty": 2
    }
  ],
  "customer": {
    "name": "Ada",
    "address": { "zip": "10115", "city": "Berlin" }
  }
}
`;

describe('payloadFingerprint', () => {
  it('is the SHA-256 (lower-case hex) of the RFC 8785 canonical JSON: a known value', () => {
    // canonical form of the payload below is exactly {"a":1,"b":[true,null,"x"]}
    expect(payloadFingerprint({ b: [true, null, 'x'], a: 1 })).toBe(
      'eca8cfb31ab74533e1eb2f4c74d2d55dfe3c79ac704787e54be8647ea7777eb1',
    );
    expect(sha256('{"a":1,"b":[true,null,"x"]}')).toBe(
      'eca8cfb31ab74533e1eb2f4c74d2d55dfe3c79ac704787e54be8647ea7777eb1',
    );
    expect(payloadFingerprint({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sorts members by UTF-16 code units (RFC 8785 §3.2.3), non-ASCII after ASCII', () => {
    expect(payloadFingerprint({ '\u00e9': 1, z: 2, a: 3 })).toBe(sha256('{"a":3,"z":2,"\u00e9":1}'));
    expect(payloadFingerprint({ '\u00e9': 1, z: 2, a: 3 })).toBe(
      'fa7ddcf43923b2711f2f592f210e5ab9e4a54a3b2df09830d93f402391a33e4e',
    );
  });

  it('members reordered at every level and pretty-printed give the same fingerprint (C1)', () => {
    expect(fp(REORDERED_PRETTY)).toBe(fp(COMPACT));
    expect(fp(COMPACT)).toBe(sha256(COMPACT)); // the compact text above is already canonical
  });

  it('1 and 1.0 (and 1e0, 10 and 1e1) are the same number', () => {
    expect(fp('{"qty":1.0}')).toBe(fp('{"qty":1}'));
    expect(fp('{"qty":1e0}')).toBe(fp('{"qty":1}'));
    expect(fp('{"qty":1e1}')).toBe(fp('{"qty":10}'));
    expect(fp('{"qty":1.0}')).toBe(sha256('{"qty":1}'));
    expect(fp('{"price":49.50}')).toBe(sha256('{"price":49.5}'));
  });

  it('swapping two array elements is a different payload (C1 conflict)', () => {
    const swapped = COMPACT.replace(
      '{"qty":1,"sku":"A-1"},{"qty":2,"sku":"B-2"}',
      '{"qty":2,"sku":"B-2"},{"qty":1,"sku":"A-1"}',
    );
    expect(swapped).not.toBe(COMPACT);
    expect(fp(swapped)).not.toBe(fp(COMPACT));
    expect(payloadFingerprint([1, 2])).not.toBe(payloadFingerprint([2, 1]));
  });

  it('the string "1" and the number 1 differ; so do true and "true", null and a missing member', () => {
    expect(fp('{"qty":"1"}')).not.toBe(fp('{"qty":1}'));
    expect(fp('{"ok":"true"}')).not.toBe(fp('{"ok":true}'));
    expect(fp('{"a":1,"b":null}')).not.toBe(fp('{"a":1}'));
    expect(fp('{"qty":"1"}')).toBe(sha256('{"qty":"1"}'));
  });

  it('any changed value changes it, at any depth', () => {
    expect(fp(COMPACT.replace('"Berlin"', '"Bonn"'))).not.toBe(fp(COMPACT));
    expect(fp(COMPACT.replace('49.5', '49.51'))).not.toBe(fp(COMPACT));
  });

  it('does not normalise strings: NFC and NFD spellings of a value are different payloads', () => {
    expect(payloadFingerprint({ name: 'Caf\u00e9' })).not.toBe(payloadFingerprint({ name: 'Cafe\u0301' }));
  });

  it('a scalar payload is fingerprinted too', () => {
    expect(payloadFingerprint('x')).toBe(sha256('"x"'));
    expect(payloadFingerprint(null)).toBe(sha256('null'));
  });

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY]])(
    'refuses %p (not JSON)',
    (n) => {
      expect(() => payloadFingerprint({ amount: n })).toThrow();
    },
  );
});
