// The SDK carries the worker's W3C trace context to the ledger on every request, so the server's
// spans and the events it records join the worker's trace (docs/observability.md).
import { LedgerClient } from '@operation-ledger/client';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function recordingFetch(seen: Headers[]) {
  return async (_url: string, init: RequestInit) => {
    seen.push(new Headers(init.headers));
    return new Response(JSON.stringify({ operationId: 'x', state: 'confirmed' }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

it('sends traceparent and tracestate from traceContext() on every request, asked anew each time', async () => {
  const seen: Headers[] = [];
  let span = 0;
  const ledger = new LedgerClient({
    baseUrl: 'http://127.0.0.1:1',
    fetch: recordingFetch(seen),
    traceContext: () => ({ traceparent: TRACEPARENT.replace(/01$/, `0${++span % 2}`), tracestate: 'v=1' }),
  });
  await ledger.operations.get('00000000-0000-4000-8000-000000000000');
  await ledger.operations.get('00000000-0000-4000-8000-000000000000');
  expect(seen.map((h) => h.get('traceparent'))).toEqual([
    TRACEPARENT.replace(/01$/, '01'),
    TRACEPARENT.replace(/01$/, '00'),
  ]);
  expect(seen.every((h) => h.get('tracestate') === 'v=1')).toBe(true);
});

it('sends no trace headers without a trace context', async () => {
  const seen: Headers[] = [];
  const ledger = new LedgerClient({ baseUrl: 'http://127.0.0.1:1', fetch: recordingFetch(seen) });
  await ledger.operations.get('00000000-0000-4000-8000-000000000000');
  expect(seen[0]!.has('traceparent')).toBe(false);
});
