// A ProblemException is an answer, not a defect: it captures no stack (the costliest part of a
// refusal), and other errors keep theirs.
import { problem } from '../../src/common/problem.js';
import { ProblemException } from '../../src/common/problem.exception.js';

it('carries the problem and no stack frames; other errors still capture theirs', () => {
  const limit = Error.stackTraceLimit;
  const refused = new ProblemException(problem('validation', 400, 'key.tenant must be a string'), {
    'retry-after': '1',
  });
  expect(refused.problem).toMatchObject({ status: 400, detail: 'key.tenant must be a string' });
  expect(refused.headers).toEqual({ 'retry-after': '1' });
  expect(refused.message).toBe('key.tenant must be a string');
  expect(refused).toBeInstanceOf(Error);
  expect(refused.stack).not.toMatch(/\n\s+at /);
  expect(Error.stackTraceLimit).toBe(limit);
  expect(new Error('a defect').stack).toMatch(/\n\s+at /);
});
