// The status view's cursors: a newest-first walk carries where it began, and a cursor this route
// answered before that (one position) still continues its walk (docs/api.md "Read models").
import { ProblemException } from '../../src/common/problem.exception.js';
import { decodeStatusCursor, encodeStatusCursor } from '../../src/projections/http/status-cursor.js';
import { encodeCursor } from '../../src/projections/http/cursor.js';

it('round-trips both legs of a walk', () => {
  const older = { leg: 'older', below: '1048576', asOf: '2097152' } as const;
  const newer = { leg: 'newer', above: '2097152' } as const;
  expect(decodeStatusCursor(encodeStatusCursor(older)!, 'desc')).toEqual(older);
  expect(decodeStatusCursor(encodeStatusCursor(newer)!, 'desc')).toEqual(newer);
  expect(encodeStatusCursor(null)).toBeNull();
});

it('continues a one-position cursor in its order; a desc one returns the rows above it again at the end', () => {
  expect(decodeStatusCursor(encodeCursor(['42']), 'asc')).toEqual({ leg: 'newer', above: '42' });
  expect(decodeStatusCursor(encodeCursor(['42']), 'desc')).toEqual({ leg: 'older', below: '42', asOf: '42' });
});

it.each([
  ['an unknown leg', ['sideways', '1']],
  ['a leg with the wrong values', ['older', '1']],
  ['a position that is not a number', ['newer', '1; drop']],
])('refuses %s as 400 naming cursor', (_what, values) => {
  let refusal: unknown;
  try {
    decodeStatusCursor(encodeCursor(values), 'desc');
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(ProblemException);
  expect((refusal as ProblemException).problem).toMatchObject({ status: 400 });
  expect(JSON.stringify((refusal as ProblemException).problem)).toContain('cursor');
});
