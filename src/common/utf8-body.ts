import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/** Refuses what is not UTF-8 (a lenient decoder would put U+FFFD in its place); keeps a BOM. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a body as strict UTF-8 (RFC 8259 §8.1), never replacing bytes with U+FFFD.
 * @returns the text (a leading BOM is kept, so JSON parsing refuses it).
 * @throws ProblemException 400 `invalid-json` naming the byte offset of the first invalid sequence.
 */
export function decodeUtf8Body(body: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(body);
  } catch {
    throw new ProblemException(
      problem(
        'invalid-json',
        400,
        `the body is not valid UTF-8: invalid byte at byte offset ${firstInvalidUtf8(body)}`,
      ),
    );
  }
}

/**
 * Byte offset of the first sequence not well-formed per Unicode Table 3-7, or `bytes.length`.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const length = sequenceLength(b, bytes[i + 1]);
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 2; k < length; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += length;
  }
  return bytes.length;
}

/** Length of the sequence led by `b` whose second byte is `next`, or 0 when it cannot be valid. */
function sequenceLength(b: number, next = -1): number {
  if (b < 0x80) return 1;
  const inRange = (lo: number, hi: number) => next >= lo && next <= hi;
  if (b >= 0xc2 && b <= 0xdf) return inRange(0x80, 0xbf) ? 2 : 0;
  if (b === 0xe0) return inRange(0xa0, 0xbf) ? 3 : 0;
  if (b === 0xed) return inRange(0x80, 0x9f) ? 3 : 0;
  if (b >= 0xe1 && b <= 0xef) return inRange(0x80, 0xbf) ? 3 : 0;
  if (b === 0xf0) return inRange(0x90, 0xbf) ? 4 : 0;
  if (b === 0xf4) return inRange(0x80, 0x8f) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return inRange(0x80, 0xbf) ? 4 : 0;
  return 0;
}
