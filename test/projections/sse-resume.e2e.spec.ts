// Live subscriptions: an SSE client disconnected for N events reconnects with Last-Event-ID and
// receives exactly those N — none missed, none twice — then live changes again.
import { connect } from 'node:net';
import { jest } from '@jest/globals';
import { ProjectionRuntime } from '../../src/projections/projection-runtime.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { SseClient } from './support/sse-client.js';
import { waitFor } from './support/wait-for.js';

const T = 'acme-gmbh';
const key = (subject: string) => ({ tenant: T, source: 'shopify', action: 'invoice.create', subject });
const N = 25;
// Subscribers of one feed in the fan-out case, and the process-wide cap just above them.
const FANOUT = 40;

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres', { maxSsePerKey: 100, maxSubscriptions: FANOUT + 2 });
}, 30_000);
afterAll(() => ledger?.close());

function subscribe(path: string, headers: Record<string, string> = {}) {
  return new SseClient(`${ledger.url}${path}`, {
    authorization: `Bearer ${ledger.rootToken}`,
    ...headers,
  }).connect();
}

async function claimAll(subjects: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const s of subjects) {
    const r = await ledger.client.claim(key(s), { s });
    expect(r.status).toBe(201);
    ids.push(r.body.operationId);
  }
  return ids;
}

describe('SSE resume with Last-Event-ID', () => {
  it('delivers exactly the N status changes made while disconnected', async () => {
    const first = await subscribe(`/v1/tenants/${T}/operations/changes`);
    const [ready] = await first.waitFor('ready', 1);
    expect(ready!.id).toMatch(/^-?\d+$/);
    const before = await claimAll(['A-1', 'A-2', 'A-3']);
    const seen = await first.waitFor('operation', 3);
    expect(seen.map((e) => e.data.operationId)).toEqual(before);
    const lastEventId = seen[2]!.id!;
    await first.close();

    const missed = await claimAll(Array.from({ length: N }, (_, i) => `B-${i}`));
    const resumed = await subscribe(`/v1/tenants/${T}/operations/changes`, { 'last-event-id': lastEventId });
    expect(resumed.status).toBe(200);
    const got = await resumed.waitFor('operation', N);
    // One more change after the backlog proves nothing else was queued in between.
    const [sentinel] = await claimAll(['C-1']);
    const all = await resumed.waitFor('operation', N + 1);
    await resumed.close();

    expect(all.slice(0, N).map((e) => e.data.operationId)).toEqual(missed);
    expect(all[N]!.data.operationId).toBe(sentinel);
    const positions = all.map((e) => BigInt(e.id!));
    expect(positions.every((p, i) => p > (i === 0 ? BigInt(lastEventId) : positions[i - 1]!))).toBe(true);
    expect(got.every((e) => e.data.state === 'in_progress' && e.data.key.tenant === T)).toBe(true);
    expect(resumed.of('ready')[0]!.id).toBeUndefined(); // a resume's ready event must not move the client's id
  }, 30_000);

  it("a Last-Event-ID past the read model's checkpoint (a restored store) gets reset, not silence", async () => {
    const ahead = await subscribe(`/v1/tenants/${T}/operations/changes`, {
      'last-event-id': '9223372036854775807',
    });
    expect(ahead.status).toBe(200);
    const [reset] = await ahead.waitFor('reset', 1);
    expect(BigInt(reset!.data.checkpoint)).toBeLessThan(9223372036854775807n);
    // From the checkpoint on, the client gets live changes again.
    const [id] = await claimAll(['R-1']);
    const [live] = await ahead.waitFor('operation', 1);
    expect(live!.data.operationId).toBe(id);
    await ahead.close();
  }, 30_000);

  it('applies filters, refuses a malformed Last-Event-ID and other tenants', async () => {
    const bad = await subscribe(`/v1/tenants/${T}/operations/changes`, { 'last-event-id': 'yesterday' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.events[0]!.data).errors[0].field).toBe('Last-Event-ID');
    const other = await ledger.createKey({ tenant: 'globex-ag', roles: ['auditor'] });
    const foreign = await new SseClient(`${ledger.url}/v1/tenants/${T}/metrics/changes`, {
      authorization: `Bearer ${other.token}`,
    }).connect();
    expect(foreign.status).toBe(403);

    const confirmedOnly = await subscribe(`/v1/tenants/${T}/operations/changes?state=confirmed`);
    const review = await subscribe(`/v1/tenants/${T}/review-queue/changes?reason=final_failure`);
    const metrics = await subscribe(`/v1/tenants/${T}/metrics/changes`);
    await confirmedOnly.waitFor('ready', 1);
    const [id] = await claimAll(['D-1']);
    await ledger.client.op(id!, 'confirm', { fencingToken: 1, destinationRef: 'REC-D1' });
    const [failedId] = await claimAll(['D-2']);
    await ledger.client.op(failedId!, 'fail', {
      fencingToken: 1,
      error: { code: 'x', message: 'y' },
      retryable: false,
    });
    const [confirmed] = await confirmedOnly.waitFor('operation', 1);
    expect(confirmed!.data).toMatchObject({ operationId: id, state: 'confirmed', destinationRef: 'REC-D1' });
    const [entered] = await review.waitFor('review', 1);
    expect(entered!.data).toMatchObject({
      operationId: failedId,
      change: 'added',
      reasons: ['final_failure'],
    });
    // Both claims are counted in one hour bucket: one `metrics` entry, or two when the projector
    // applied them in separate batches (a feed coalesces a row's changes).
    const updates = await metrics.waitFor('metrics', 1);
    expect(updates[0]!.data.day.counters.claims).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(confirmedOnly.of('operation')).toHaveLength(1);
    await Promise.all([confirmedOnly.close(), review.close(), metrics.close()]);
  }, 30_000);

  it('a resume gets each row changed while away once, in its latest state — a review entry’s removal too', async () => {
    const opened = await subscribe(`/v1/tenants/${T}/operations/changes`);
    const [ready] = await opened.waitFor('ready', 1);
    await opened.close();
    const from = ready!.id!;

    const [id] = await claimAll(['E-1']);
    await ledger.client.op(id!, 'steps/post/start', { fencingToken: 1 });
    await ledger.client.op(id!, 'unknown', { fencingToken: 1, reason: 'timeout' });
    await ledger.client.op(id!, 'resolve', {
      resolution: 'confirmed',
      destinationRef: 'REC-E1',
      reason: 'found',
    });
    await waitFor(async () => {
      const { body } = await ledger.client.get('/v1/projections');
      return body.projections.every((p: any) => p.lag.events === 0);
    }, 'read models caught up');

    const status = await subscribe(`/v1/tenants/${T}/operations/changes`, { 'last-event-id': from });
    const review = await subscribe(`/v1/tenants/${T}/review-queue/changes`, { 'last-event-id': from });
    const [row] = await status.waitFor('operation', 1);
    const [entry] = await review.waitFor('review', 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(status.of('operation')).toHaveLength(1);
    expect(review.of('review')).toHaveLength(1);
    expect(row!.data).toMatchObject({ operationId: id, state: 'confirmed', destinationRef: 'REC-E1' });
    expect(entry!.data).toMatchObject({
      operationId: id,
      change: 'removed',
      reasons: [],
      previousReasons: ['unknown_outcome'],
      items: [],
    });
    expect(BigInt(entry!.id!)).toBeLessThanOrEqual(BigInt(row!.id!));
    await Promise.all([status.close(), review.close()]);
  }, 30_000);

  it('serves many subscribers of one feed with one read per change, each receiving every change', async () => {
    const model = ledger.app.get(ProjectionRuntime).model('operations')!;
    const reads = jest.spyOn(model, 'readFeed');
    try {
      const subscribers = await Promise.all(
        Array.from({ length: FANOUT }, () => subscribe(`/v1/tenants/${T}/operations/changes`)),
      );
      await Promise.all(subscribers.map((s) => s.waitFor('ready', 1)));
      await new Promise((r) => setTimeout(r, 300)); // let every subscriber join the feed's cursor
      reads.mockClear();
      const started = Date.now();
      const ids = await claimAll(Array.from({ length: 10 }, (_, i) => `F-${i}`));
      for (const s of subscribers) {
        const got = await s.waitFor('operation', ids.length);
        expect(got.map((e) => e.data.operationId)).toEqual(ids);
      }
      // Each subscriber reading on its own makes FANOUT reads per projected batch. One shared
      // cursor reads about once per batch (at most one per claim here; a change signal during a
      // read costs one more) plus its fallback poll each second.
      const polls = Math.ceil((Date.now() - started) / 1000);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(2 * ids.length + polls);

      // Past the process-wide cap (FANOUT + 2 here): 503 with Retry-After, as problem+json.
      const extra = await Promise.all([0, 1].map(() => subscribe(`/v1/tenants/${T}/operations/changes`)));
      expect(extra.map((s) => s.status)).toEqual([200, 200]);
      const refused = await fetch(`${ledger.url}/v1/tenants/${T}/operations/changes`, {
        headers: { authorization: `Bearer ${ledger.rootToken}`, accept: 'text/event-stream' },
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(((await refused.json()) as { type: string }).type).toMatch(/too-many-subscriptions$/);
      await Promise.all([...subscribers, ...extra].map((s) => s.close()));
    } finally {
      reads.mockRestore();
    }
  }, 60_000);

  it('writes the stream as plain bytes until the connection closes: no chunked coding around the events', async () => {
    const { host } = new URL(ledger.url);
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(ledger.url).port) });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => (received += text));
    socket.write(
      `GET /v1/tenants/${T}/operations/changes HTTP/1.1\r\nHost: ${host}\r\n` +
        `Authorization: Bearer ${ledger.rootToken}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    await waitFor(async () => received.includes('event: ready'), 'the ready event');
    const [id] = await claimAll(['RAW-1']);
    await waitFor(async () => received.includes(id!), 'the claim');
    socket.destroy();

    const [head, body] = [
      received.slice(0, received.indexOf('\r\n\r\n')),
      received.slice(received.indexOf('\r\n\r\n') + 4),
    ];
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).not.toContain('transfer-encoding');
    expect(head.toLowerCase()).toContain('connection: close');
    expect(head.toLowerCase()).not.toContain('keep-alive:'); // no keep-alive offer on a closing connection
    // Every line of the body is an SSE field or comment (WHATWG HTML §9.2.6): no chunk sizes.
    expect(body.startsWith('retry: 2000\n\n')).toBe(true);
    for (const line of body.split('\n').filter(Boolean)) expect(line).toMatch(/^(retry|id|event|data|): ?/);
    expect(body).toContain(`"operationId":"${id}"`);
  });
  it('answers HEAD with the head alone: no event bytes, and the connection ends', async () => {
    const { received, closed } = raw(`HEAD /v1/tenants/${T}/operations/changes HTTP/1.1\r\n`);
    await closed;
    const text = received();
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text.toLowerCase()).toContain('content-type: text/event-stream');
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(''); // RFC 9110 §9.3.2: no content
  });

  it('does not act on a request pipelined behind the stream: the stream never lets its answer out', async () => {
    const body = JSON.stringify({ key: key('PIPE-1'), payload: { s: 'PIPE-1' } });
    const stream = raw(
      `GET /v1/tenants/${T}/operations/changes HTTP/1.1\r\n`,
      `POST /v1/claims HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ledger.rootToken}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await waitFor(async () => stream.received().includes('event: ready'), 'the ready event');
    const [sentinel] = await claimAll(['PIPE-SENTINEL']);
    await waitFor(async () => stream.received().includes(sentinel!), 'the sentinel claim');
    stream.destroy();
    // RFC 9112 §9.6: after a response with `close` no further request on the connection is
    // processed. The claim was never answered, so it must not have been made: claimed now, it is new.
    expect(stream.received()).not.toContain('PIPE-1');
    expect((await ledger.client.claim(key('PIPE-1'), { s: 'PIPE-1' })).status).toBe(201);
  });
  it('streams to a subscription pipelined behind another request on its connection', async () => {
    const body = JSON.stringify({ key: key('PIPE-2'), payload: { s: 'PIPE-2' } });
    const stream = raw(
      `POST /v1/claims HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`,
      body +
        `GET /v1/tenants/${T}/operations/changes HTTP/1.1\r\nHost: x\r\n` +
        `Authorization: Bearer ${ledger.rootToken}\r\n\r\n`,
    );
    await waitFor(async () => stream.received().includes('event: ready'), 'the ready event');
    const [later] = await claimAll(['PIPE-3']);
    await waitFor(async () => stream.received().includes(later!), 'the claim made after subscribing');
    stream.destroy();
    expect(stream.received()).toMatch(/^HTTP\/1\.1 201 /);
  });
  it('answers many reads pipelined on one connection, in order, with no listener piling up on it', async () => {
    const server = ledger.app.getHttpServer() as import('node:http').Server;
    let mostCloseListeners = 0;
    const onConnection = (socket: import('node:net').Socket) =>
      socket.on('newListener', (event) => {
        if (event === 'close')
          mostCloseListeners = Math.max(mostCloseListeners, socket.listenerCount('close') + 1);
      });
    server.on('connection', onConnection);
    const get = `GET /v1/tenants/${T}/operations?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ledger.rootToken}\r\n\r\n`;
    const conn = raw(`GET /v1/tenants/${T}/operations?limit=1 HTTP/1.1\r\n`, get.repeat(11));
    await waitFor(async () => conn.received().split('HTTP/1.1 200').length - 1 === 12, 'twelve answers');
    server.off('connection', onConnection);
    // Past 10 listeners of one event Node warns of a leak (MaxListenersExceededWarning) in the log.
    conn.destroy();
    expect(mostCloseListeners).toBeLessThanOrEqual(10);
  });
});

/** Sends `first` (a request line) with headers, then `more` verbatim, on one raw connection. */
function raw(first: string, more = '') {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(ledger.url).port) });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `${first}Host: x\r\nAuthorization: Bearer ${ledger.rootToken}\r\nAccept: text/event-stream\r\n\r\n${more}`,
  );
  return { received: () => text, closed, destroy: () => socket.destroy() };
}
