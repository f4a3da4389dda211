import type { FastifyInstance } from 'fastify';
import { isSafeNumber, parse } from 'lossless-json';
import { problem } from './problem.js';
import { decodeUtf8Body } from './utf8-body.js';
import { jsonContentHeadersRefusal } from './json-content-headers.js';
import { ProblemException } from './problem.exception.js';

/** Deepest nesting of arrays/objects accepted in a request body. */
export const MAX_JSON_DEPTH = 64;

/**
 * Returns the nesting depth of a JSON text, scanning outside strings only, stopping as soon as
 * `limit` is exceeded (so a hostile 1 MB of `[` costs one linear pass and no recursion).
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = closingQuote(text, i);
      if (i < 0) return false; // unterminated: the rest is inside a string
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** A run of string characters that are neither `"` nor a backslash (sticky: from `lastIndex`). */
const PLAIN_RUN = /[^"\\]*/y;

/**
 * The index of the `"` closing the string opened at `open`, or -1 when the text ends first. The
 * plain run is skipped by a sticky regular expression, much faster than a `charCodeAt` loop
 * (docs/decisions.md "Claim path").
 */
function closingQuote(text: string, open: number): number {
  PLAIN_RUN.lastIndex = open + 1;
  PLAIN_RUN.test(text);
  for (let i = PLAIN_RUN.lastIndex; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34 /* " */) return i;
  }
  return -1;
}

/** A character that can continue a JSON number: digits, `e`, `E`, `+`, `.`, `-`. */
function continuesNumber(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 101 || c === 69 || c === 43 || c === 46 || c === 45;
}

/**
 * Parses JSON without silently altering what the client sent: numbers a double cannot carry
 * exactly and duplicate member names are refused (RFC 8259 §4 leaves both open;
 * docs/security.md "Limits").
 * @throws ProblemException 400 `invalid-json`, or 400 `validation` (nested too deep).
 */
export function parseExactJson(text: string): unknown {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ProblemException(
      problem('validation', 400, `the body is nested deeper than ${MAX_JSON_DEPTH} levels`),
    );
  }
  let parsed = parseNative(text);
  if (parsed === NOT_EXACT) {
    try {
      parsed = parse(text, null, (value: string) => {
        if (!isSafeNumber(value)) {
          throw new Error(`the number ${value} cannot be represented exactly; send it as a string`);
        }
        return parseFloat(value);
      });
    } catch (err) {
      throw new ProblemException(problem('invalid-json', 400, (err as Error).message));
    }
  }
  const reserved = reservedMemberPaths(parsed);
  if (reserved.length > 0) {
    throw new ProblemException(
      problem('invalid-json', 400, `member names ${[...RESERVED_MEMBERS].join(', ')} are not accepted`, {
        errors: reserved.map((field) => ({ field, message: 'this member name is reserved; rename it' })),
      }),
    );
  }
  return parsed;
}

const NOT_EXACT: unique symbol = Symbol('not exact');

/**
 * `JSON.parse(text)` when that is exactly what lossless-json would return (every number safe, no
 * repeated member name), else {@link NOT_EXACT}. lossless-json is kept for the rare rest because
 * its strings cost many times the body's size in heap (docs/decisions.md "Request bodies").
 */
function parseNative(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return NOT_EXACT;
  }
  const objects: (Set<string> | null)[] = []; // one entry per open object (its names) or array (null)
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      i = closingQuote(text, start); // found: the text is valid JSON
      const names = objects[objects.length - 1];
      if (expectName && names) {
        const raw = text.slice(start + 1, i);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (names.has(name)) return NOT_EXACT;
        names.add(name);
        expectName = false;
      }
    } else if (c === 123 /* { */) {
      objects.push(new Set());
      expectName = true;
    } else if (c === 91 /* [ */) {
      objects.push(null);
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      objects.pop();
    } else if (c === 44 /* , */) {
      expectName = objects[objects.length - 1] !== null;
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57) /* 0-9 */) {
      const start = i;
      while (i + 1 < text.length && continuesNumber(text.charCodeAt(i + 1))) i++;
      if (!isSafeNumber(text.slice(start, i + 1))) return NOT_EXACT;
    }
  }
  return parsed;
}

/** Member names Nest's ValidationPipe strips: refused, as losing them would change a fingerprint. */
export const RESERVED_MEMBERS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

/** Dotted paths of members named in {@link RESERVED_MEMBERS} (at most 10), iteratively. */
function reservedMemberPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0 && found.length < 10) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    for (const k of Object.keys(v)) {
      const child = path ? `${path}.${k}` : k;
      if (RESERVED_MEMBERS.has(k)) found.push(child);
      else stack.push([(v as Record<string, unknown>)[k], child]);
    }
  }
  return found;
}

/**
 * A body left unread because its `content-type` is missing or not JSON: JSON routes refuse it
 * ({@link refuseUnreadBody}); streaming routes read the request themselves.
 */
export class UnreadBody {
  /** `contentType`: the header's media type as sent (lower case), or null when it was missing. */
  constructor(readonly contentType: string | null) {}
}

/**
 * Refuses an {@link UnreadBody}; any other value passes.
 * @throws ProblemException 415 `unsupported-media-type`, `errors[0].field` = `content-type`.
 */
export function refuseUnreadBody(value: unknown): void {
  if (value instanceof UnreadBody) throw unreadBodyRefusal(value.contentType);
}

/**
 * The refusal of a body sent with `contentType` (its media type, or null when the header was
 * missing) where JSON was expected: 415 `unsupported-media-type` naming the header.
 */
export function unreadBodyRefusal(contentType: string | null): ProblemException {
  const message =
    contentType === null
      ? 'the request has a body but no content-type header: send the JSON body with content-type: application/json'
      : `content-type ${contentType} is not accepted: send the JSON body with content-type: application/json`;
  return new ProblemException(
    problem('unsupported-media-type', 415, message, { errors: [{ field: 'content-type', message }] }),
  );
}

/** A body read whole and refused by {@link parseExactJson}; thrown by the `preValidation` hook. */
class RefusedBody {
  constructor(readonly error: unknown) {}
}

/** `application/json`, and `application/<anything>+json` (RFC 6839 structured syntax suffix). */
const JSON_MEDIA_TYPES = /^application\/([^\s;/]+\+)?json(\s*;|$)/;

/**
 * Replaces Fastify's body parsers: JSON (and `+json`) bodies up to the route's `bodyLimit` (413
 * beyond) are checked by {@link jsonContentHeadersRefusal} (415), {@link decodeUtf8Body} (400) and
 * {@link parseExactJson}; a blank one is no body; any other `content-type` is left unread as
 * {@link UnreadBody}. Refusals are raised in `preValidation`, not the parser, so the connection
 * stays open (Fastify closes it after a parser error).
 */
export function exactJsonBody(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_MEDIA_TYPES, { parseAs: 'buffer' }, (req, bytes, done) => {
    const refused = jsonContentHeadersRefusal(req.headers);
    if (refused) return done(null, new RefusedBody(refused));
    let body: string;
    try {
      body = decodeUtf8Body(bytes as Buffer);
    } catch (err) {
      return done(null, new RefusedBody(err));
    }
    if (body.trim() === '') return done(null, undefined);
    try {
      done(null, parseExactJson(body));
    } catch (err) {
      done(null, new RefusedBody(err));
    }
  });
  fastify.addContentTypeParser('*', (req, _payload, done) => {
    const type = req.headers['content-type'];
    done(null, new UnreadBody(type ? type.split(';')[0]!.trim().toLowerCase() : null));
  });
  fastify.addHook('preValidation', (request, _reply, next) => {
    next(request.body instanceof RefusedBody ? (request.body.error as Error) : undefined);
  });
}
