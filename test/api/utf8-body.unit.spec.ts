import { decodeUtf8Body, firstInvalidUtf8 } from '../../src/common/utf8-body.js';
import { ProblemException } from '../../src/common/problem.exception.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('decodeUtf8Body', () => {
  it('decodes valid UTF-8, keeping a BOM', () => {
    expect(decodeUtf8Body(Buffer.from('\uFEFF{"a":"café 😀"}'))).toBe('\uFEFF{"a":"café 😀"}');
  });

  it('refuses invalid UTF-8 with 400 invalid-json naming the offset of the first bad sequence', () => {
    const refusal = (() => {
      try {
        decodeUtf8Body(Buffer.concat([Buffer.from('{"a":"é'), bytes(0xc3, 0x28)]));
      } catch (err) {
        return err;
      }
    })();
    expect(refusal).toBeInstanceOf(ProblemException);
    expect((refusal as ProblemException).problem).toMatchObject({
      status: 400,
      code: 'invalid-json',
      detail: 'the body is not valid UTF-8: invalid byte at byte offset 8',
    });
  });
});

describe('firstInvalidUtf8', () => {
  it.each([
    ['lone continuation', bytes(0x41, 0x80), 1],
    ['overlong 2-byte', bytes(0xc0, 0xaf), 0],
    ['overlong 3-byte', bytes(0x41, 0xe0, 0x80, 0xaf), 1],
    ['surrogate', bytes(0xed, 0xa0, 0x80), 0],
    ['above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['truncated at the end', bytes(0x41, 0x42, 0xe2, 0x82), 2],
    ['bad third byte', bytes(0xe2, 0x82, 0x41), 0],
    ['0xff', bytes(0x7b, 0xff), 1],
  ])('%s', (_name, input, offset) => {
    expect(firstInvalidUtf8(input)).toBe(offset);
  });

  it('agrees with the fatal TextDecoder on random bytes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    for (let n = 0; n < 5000; n++) {
      const input = Uint8Array.from({ length: 1 + (n % 8) }, () => {
        const b = next();
        return b < 96 ? b : b < 176 ? 0x80 + (b % 64) : b; // many continuation bytes
      });
      let valid = true;
      try {
        strict.decode(input);
      } catch {
        valid = false;
      }
      const offset = firstInvalidUtf8(input);
      expect({ input: [...input], valid: offset === input.length }).toEqual({ input: [...input], valid });
      strict.decode(input.subarray(0, offset)); // the part before it is valid
    }
  });
});
