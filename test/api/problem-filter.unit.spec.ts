// Every error class the handlers raise maps to its documented problem, never to a bare 500.
import { ProblemDetailsFilter } from '../../src/common/problem-details.filter.js';
import { EventStoreUnavailableError } from '../../src/event-store/event-store.port.js';
import { ContentionError } from '../../src/common/contention.error.js';

function render(err: unknown) {
  const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
  const res = {
    raw: { headersSent: false },
    sent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    headers(headers: Record<string, string>) {
      sent.headers = headers;
      return this;
    },
    send(body: string) {
      sent.body = body;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ headers: {} }) }) };
  new ProblemDetailsFilter().catch(err, host as never);
  return { ...sent, problem: JSON.parse(sent.body!) };
}

it.each([
  [new ContentionError('operation-x'), 'contention'],
  [new EventStoreUnavailableError('down'), 'store-unavailable'],
])('%s → 503 %s with Retry-After', (err, code) => {
  const r = render(err);
  expect(r.status).toBe(503);
  expect(r.problem.code).toBe(code);
  expect(r.headers!['Retry-After']).toBe('1');
  expect(r.headers!['Content-Type']).toBe('application/problem+json');
});
