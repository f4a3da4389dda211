// Limits on request bodies (found by the fuzz): strings PostgreSQL cannot store are refused with
// 400 naming the field, instead of failing in the store with a 500.
import { unstorableStrings } from '../../src/common/unstorable-strings.js';
import { assertStorable } from '../../src/common/validation.js';
import { ProblemException } from '../../src/common/problem.exception.js';

describe('unstorable strings', () => {
  it.each([
    [{ payload: { note: 'x\u0000y' } }, 'payload.note'],
    [{ payload: { ['a\u0000']: 1 } }, 'payload.a\u0000'],
    [{ workerId: '\ud800' }, 'workerId'],
    [{ payload: ['ok', '\udc00x'] }, 'payload.1'],
    [{ payload: '\ud800A' }, 'payload'],
  ])('%j is refused naming %s', (body, field) => {
    expect(unstorableStrings(body).map((e) => e.field)).toEqual([field]);
    expect(() => assertStorable(body)).toThrow(ProblemException);
  });

  it('names key fields so the answer is invalid-key', () => {
    try {
      assertStorable({ key: { subject: 'ORD\u0000-9' } });
    } catch (err) {
      expect((err as ProblemException).problem).toMatchObject({
        code: 'invalid-key',
        errors: [{ field: 'key.subject' }],
      });
    }
    expect.assertions(1);
  });

  it.each([[{ a: '\\u0000' }], [{ a: '🦄' }], [{ a: 'é\u0001' }], [[1, null, true]]])(
    '%j is accepted',
    (body) => {
      expect(unstorableStrings(body)).toEqual([]);
    },
  );
});
