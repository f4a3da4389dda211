// What the user's API answers when the ledger refuses the adapter itself (docs/protect-your-api.md):
// the ledger's refusal of the app's own API key or of its rate is the app's problem, not the
// client's. It was passed through: a client got 401 `unauthorized` or 403 `forbidden-tenant`
// about a key it never sent, and a 429 without Retry-After.
import { LedgerRequestError } from '../../packages/client/src/errors.js';
import { refusalAnswer } from '../../packages/client/src/idempotent-http/refusal-answer.js';

const refused = (status: number, code: string) =>
  new LedgerRequestError(
    { type: `https://x/${code}`, title: code, status, code, detail: 'ledger detail' },
    'POST /v1/claims',
  );

it.each([
  [401, 'unauthorized'],
  [403, 'forbidden-tenant'],
  [403, 'forbidden'],
])('answers the ledger refusing the app (%i %s) as 500, without the ledger detail', (status, code) => {
  const answer = refusalAnswer(refused(status, code), 'k-1')!;
  expect(answer.status).toBe(500);
  const body = JSON.parse(String(answer.body)) as { code: string; detail: string };
  expect(body.code).toBe('ledger-refused-app');
  expect(body.detail).not.toContain('ledger detail');
});

it('answers the ledger rate-limiting the app as 503 with Retry-After', () => {
  const answer = refusalAnswer(refused(429, 'rate-limited'), 'k-1')!;
  expect(answer.status).toBe(503);
  expect(new Map(answer.headers).get('retry-after')).toBe('1');
});

it('passes a payload over the ledger limit on as 413: the client sent it', () => {
  expect(refusalAnswer(refused(413, 'payload-too-large'), 'k-1')!.status).toBe(413);
});
