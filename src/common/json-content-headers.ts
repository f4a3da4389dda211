import type { IncomingHttpHeaders } from 'node:http';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/** Charsets a JSON body may declare: it is read as UTF-8, of which US-ASCII is a subset. */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * 415 `unsupported-media-type` naming the header when a JSON body is not plain UTF-8: a
 * `Content-Encoding` other than `identity` (RFC 9110 §8.4; not decompressed) or a `charset` other
 * than UTF-8 (RFC 8259 §8.1); else null.
 */
export function jsonContentHeadersRefusal(headers: IncomingHttpHeaders): ProblemException | null {
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') {
    return refusal(
      'content-encoding',
      `content-encoding ${encoding} is not accepted: send the JSON body uncompressed (no content-encoding, or identity)`,
    );
  }
  const charset = charsetOf(headers['content-type'] ?? '');
  if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
    return refusal(
      'content-type',
      `charset=${charset} is not accepted: the JSON body is read as UTF-8 (send charset=utf-8 or none)`,
    );
  }
  return null;
}

/** The `charset` parameter of a media type, unquoted and in lower case; undefined when absent. */
function charsetOf(contentType: string): string | undefined {
  return contentType
    .split(';')
    .slice(1)
    .map((p) => p.split('='))
    .find(([name]) => name!.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
}

function refusal(field: 'content-encoding' | 'content-type', message: string): ProblemException {
  return new ProblemException(
    problem('unsupported-media-type', 415, message, { errors: [{ field, message }] }),
  );
}
