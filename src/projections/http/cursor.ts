import type { ProblemException } from '../../common/problem.exception.js';
import { unstorableStrings } from '../../common/unstorable-strings.js';
import { validationProblem } from '../../common/validation.js';

/** 400 `validation` naming `cursor`. */
export function invalidCursor(): ProblemException {
  return validationProblem([
    { field: 'cursor', message: 'cursor must be a nextCursor value returned by this route' },
  ]);
}

/**
 * Opaque page cursors: base64url of a JSON array of the last row's sort values. Clients pass back
 * `nextCursor` unchanged; anything else is refused as a 400 naming `cursor`.
 */
export function encodeCursor(values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor made by {@link encodeCursor} with `arity` string values (or one of several).
 * @returns undefined when `cursor` is absent.
 * @throws ProblemException 400 `validation` (field `cursor`) when it is malformed.
 */
export function decodeCursor(
  cursor: string | undefined,
  arity: number | readonly number[],
): string[] | undefined {
  const arities = typeof arity === 'number' ? [arity] : arity;
  if (cursor === undefined) return undefined;
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(values) &&
      arities.includes(values.length) &&
      values.every((v) => typeof v === 'string' && v.length <= 1024) &&
      unstorableStrings(values).length === 0
    ) {
      return values as string[];
    }
  } catch {
    /* fall through */
  }
  throw invalidCursor();
}

/** PostgreSQL's bigint range (its docs, "Numeric Types"): a position outside fails the cast. */
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * Checks that a cursor value is a decimal position within PostgreSQL's bigint.
 * @throws ProblemException 400 naming `cursor`.
 */
export function cursorPosition(value: string): string {
  if (!/^-?\d{1,20}$/.test(value)) throw invalidCursor();
  const n = BigInt(value);
  if (n < BIGINT_MIN || n > BIGINT_MAX) throw invalidCursor();
  return value;
}

/**
 * Checks that a cursor value is an instant as the routes write them (`toISOString`, RFC 3339 UTC,
 * years 0000–9999), so the store's `timestamptz` cast cannot refuse it.
 * @throws ProblemException 400 naming `cursor`.
 */
export function cursorInstant(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.exec(value);
  const t = Date.parse(value);
  if (!m || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value.slice(0, 10))
    throw invalidCursor();
  return value;
}

/**
 * Checks that a cursor value is a uuid in its canonical text form (RFC 9562 §4).
 * @throws ProblemException 400 naming `cursor`.
 */
export function cursorUuid(value: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) throw invalidCursor();
  return value;
}
