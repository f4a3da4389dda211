// Forged page cursors are refused as 400 naming `cursor` before they reach the store: a position
// beyond bigint, a timestamp or uuid PostgreSQL cannot cast, U+0000 in a text value — each of
// these answered 500 when the store refused the cast (docs/api.md "Read models").
import { ProblemException } from '../../src/common/problem.exception.js';
import {
  cursorInstant,
  cursorPosition,
  cursorUuid,
  decodeCursor,
  encodeCursor,
} from '../../src/projections/http/cursor.js';

function refusal(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectCursorRefused(f: () => unknown): void {
  const error = refusal(f);
  expect(error).toBeInstanceOf(ProblemException);
  expect((error as ProblemException).problem).toMatchObject({ status: 400 });
  expect(JSON.stringify((error as ProblemException).problem)).toContain('"field":"cursor"');
}

it('keeps positions within PostgreSQL bigint', () => {
  expect(cursorPosition('9223372036854775807')).toBe('9223372036854775807');
  expect(cursorPosition('-9223372036854775808')).toBe('-9223372036854775808');
  expectCursorRefused(() => cursorPosition('9223372036854775808'));
  expectCursorRefused(() => cursorPosition('99999999999999999999'));
  expectCursorRefused(() => cursorPosition('-99999999999999999999'));
});

it('takes only the ISO 8601 UTC instants the routes answer', () => {
  expect(cursorInstant('2026-12-04T22:30:00.000Z')).toBe('2026-12-04T22:30:00.000Z');
  for (const forged of ['1', '0', 'Tue', '+275760-09-13T00:00:00.000Z', '2026-13-40T00:00:00.000Z'])
    expectCursorRefused(() => cursorInstant(forged));
});

it('takes only well-formed uuids', () => {
  expect(cursorUuid('0b9d5b1e-4d4c-5d6a-9a7e-3f1d2c3b4a59')).toBe('0b9d5b1e-4d4c-5d6a-9a7e-3f1d2c3b4a59');
  expectCursorRefused(() => cursorUuid('------------------------------------'));
});

it('refuses text values the store cannot hold', () => {
  expectCursorRefused(() => decodeCursor(encodeCursor(['2026-12-04T22:30:00.000Z', 'a\u0000b']), 2));
  expectCursorRefused(() => decodeCursor(encodeCursor(['\ud800']), 1));
});
