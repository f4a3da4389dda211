// The protocol computes UUID v5 with its own SHA-1 and UTF-8 encoder (no platform library, so the
// console and the server share it): both must equal Node's for any input, or operationIds drift.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { v5 as uuidv5 } from 'uuid';
import { OPERATION_ID_NAMESPACE, uuidV5 } from '@operation-ledger/protocol';
import { sha1 } from '../../packages/protocol/src/sha1.js';
import { encodeUtf8, utf8ByteLength } from '../../packages/protocol/src/utf8.js';
import { referenceUuidV5 } from '../ledger/support/fixtures.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** Any UTF-16 code units, unpaired surrogates included. */
const anyText = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

describe('protocol SHA-1', () => {
  it('gives the FIPS 180 example digests', () => {
    const ascii = (s: string) => encodeUtf8(s);
    expect(hex(sha1(ascii('')))).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(hex(sha1(ascii('abc')))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(hex(sha1(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
    );
  });

  it("equals Node's at every padding boundary and for long inputs", () => {
    for (const length of [1, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff);
      expect(hex(sha1(bytes))).toBe(createHash('sha1').update(bytes).digest('hex'));
    }
  });
});

describe('protocol UTF-8', () => {
  it('encodes like Buffer, unpaired surrogates as U+FFFD', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const expected = Buffer.from(text, 'utf8');
        expect(hex(encodeUtf8(text))).toBe(expected.toString('hex'));
        expect(utf8ByteLength(text)).toBe(expected.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('protocol UUID v5', () => {
  it('is the RFC 9562 example (www.example.com under the DNS namespace)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('equals the uuid library and a node:crypto reference for any name', () => {
    fc.assert(
      fc.property(anyText, (name) => {
        const id = uuidV5(name);
        expect(id).toBe(referenceUuidV5(name, OPERATION_ID_NAMESPACE));
        expect(id).toBe(uuidv5(Buffer.from(name, 'utf8'), OPERATION_ID_NAMESPACE));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(TypeError);
  });
});
