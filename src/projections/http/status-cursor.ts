import type { StatusCursor } from '../operation-views/status-queries.js';
import { cursorPosition, decodeCursor, encodeCursor, invalidCursor } from './cursor.js';

/**
 * The status view's `nextCursor` for `next` (null: the walk is over): `["older", below, asOf]`
 * or `["newer", above]` (see `StatusCursor`, status-queries.ts).
 */
export function encodeStatusCursor(next: StatusCursor | null): string | null {
  if (next === null) return null;
  return encodeCursor(next.leg === 'older' ? ['older', next.below, next.asOf] : ['newer', next.above]);
}

/**
 * Decodes a status-view cursor; a one-value cursor (`[position]`) continues in `order` as a walk
 * that began there.
 * @returns undefined when `cursor` is absent.
 * @throws ProblemException 400 `validation` (field `cursor`) when it is malformed.
 */
export function decodeStatusCursor(
  cursor: string | undefined,
  order: 'asc' | 'desc',
): StatusCursor | undefined {
  const values = decodeCursor(cursor, [1, 2, 3]);
  if (values === undefined) return undefined;
  const [tag, a, b] = values as [string, string?, string?];
  if (values.length === 1) {
    const position = cursorPosition(tag);
    return order === 'asc'
      ? { leg: 'newer', above: position }
      : { leg: 'older', below: position, asOf: position };
  }
  if (tag === 'newer' && values.length === 2) return { leg: 'newer', above: cursorPosition(a!) };
  if (tag === 'older' && values.length === 3)
    return { leg: 'older', below: cursorPosition(a!), asOf: cursorPosition(b!) };
  throw invalidCursor();
}
