import type { ProblemException } from '../../common/problem.exception.js';
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
      values.every((v) => typeof v === 'string' && v.length <= 1024)
    ) {
      return values as string[];
    }
  } catch {
    /* fall through */
  }
  throw invalidCursor();
}

/**
 * Checks that a cursor value is a decimal position (a bigint).
 * @throws ProblemException 400 naming `cursor`.
 */
export function cursorPosition(value: string): string {
  if (!/^-?\d{1,20}$/.test(value)) throw invalidCursor();
  return value;
}
