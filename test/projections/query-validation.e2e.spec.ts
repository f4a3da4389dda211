// Malformed query values of the read-model and subscription routes are 400 `validation` naming the
// parameter, never a stream opened or a report answered on a guess.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { SseClient } from './support/sse-client.js';

const T = 'acme';
let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
});
afterAll(() => ledger?.close());

/** GET with the root key; an event stream that opens is closed at once (its body is `{}`). */
async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(ledger.url + path, {
    headers: { authorization: `Bearer ${ledger.rootToken}`, ...headers },
  });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: {} as any };
  }
  return { status: res.status, body: (await res.json()) as any };
}
const fields = (r: { body: any }) => (r.body.errors ?? []).map((e: { field: string }) => e.field);

describe('lastEventId and Last-Event-ID', () => {
  const changes = `/v1/tenants/${T}/operations/changes`;

  it.each(['-2', '-01', '007', '9223372036854775808', '1.5'])(
    'refuses lastEventId=%s with 400 naming it',
    async (id) => {
      const r = await get(`${changes}?lastEventId=${id}`);
      expect(r.status).toBe(400);
      expect(fields(r)).toEqual(['lastEventId']);
    },
  );

  it('refuses the same in the Last-Event-ID header, naming the header', async () => {
    const r = await get(changes, { 'last-event-id': '-5' });
    expect(r.status).toBe(400);
    expect(fields(r)).toEqual(['Last-Event-ID']);
  });

  it('resumes from -1, the id of `ready` before the first event; the largest position is accepted and reset', async () => {
    const open = (id: string) =>
      new SseClient(`${ledger.url}${changes}`, {
        authorization: `Bearer ${ledger.rootToken}`,
        'last-event-id': id,
      }).connect();
    const first = await open('-1');
    expect(first.status).toBe(200);
    const [ready] = await first.waitFor('ready', 1);
    expect(ready!.data.resumedAfter).toBe('-1');
    await first.close();
    // Past the read model's checkpoint: a valid id this store never sent, so the client reloads.
    const largest = await open('9223372036854775807');
    expect(largest.status).toBe(200);
    await largest.waitFor('reset', 1);
    await largest.close();
  });
});

describe('time ranges', () => {
  it('refuses metrics whose to is not after from, naming to', async () => {
    const r = await get(`/v1/tenants/${T}/metrics?from=2020-01-01T00:00:00Z&to=2019-01-01T00:00:00Z`);
    expect(r.status).toBe(400);
    expect(fields(r)).toEqual(['to']);
  });

  it.each([
    ['metrics', 'from=2020-01-01'],
    ['metrics', 'to=2020-01-01T00:00:00'],
    ['reconciliation', 'from=2020-01-01'],
    ['conflicts', 'since=2020-01-01'],
    ['operations', 'changedSince=2020-01-01T10:00'],
  ])('refuses %s?%s (a date, or a time without a zone) naming the parameter', async (route, query) => {
    const r = await get(`/v1/tenants/${T}/${route}?${query}`);
    expect(r.status).toBe(400);
    expect(fields(r)).toEqual([query.split('=')[0]]);
  });

  it('takes times with a zone', async () => {
    const r = await get(
      `/v1/tenants/${T}/metrics?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00.000%2B02:00`,
    );
    expect(r.status).toBe(200);
  });
});
