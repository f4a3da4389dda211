// The operator CLI against a real in-process ledger (PostgreSQL): ops list/show/history/watch, review,
// and the single-operation actions, each in table and --json form, with the documented exit codes.
import { canonicalKey, operationIdOf } from '@operation-ledger/client';
import { key, makeUnknown, settled, startCliWorld, type CliWorld } from './support/cli-harness.js';

let world: CliWorld;
const ids: Record<string, string> = {};
const T = ['--tenant', 'acme'];

beforeAll(async () => {
  world = await startCliWorld();
  const sdk = world.sdk;
  const done = await sdk.worker.claim({ key: key('order:1'), payload: { amount: 10 }, workerId: 'w1' });
  if (done.kind !== 'acquired') throw new Error('acquired expected');
  ids.confirmed = done.operationId;
  await sdk.worker.confirm(done.operationId, done.fencingToken, { destinationRef: 'INV-1' });
  await sdk.worker.claim({ key: key('order:1'), payload: { amount: 10 } }); // a replayed duplicate (audit event)
  ids.unknown = await makeUnknown(world, 'order:2');
  world.ledger.clock.advance(60_000); // distinct ages: the queue is oldest first
  ids.unknown2 = await makeUnknown(world, 'order:3');
  const failed = await sdk.worker.claim({ key: key('order:4', 'crm.sync'), payload: {} });
  if (failed.kind !== 'acquired') throw new Error('acquired expected');
  ids.failed = failed.operationId;
  await sdk.worker.fail(
    failed.operationId,
    failed.fencingToken,
    { code: 'bad-vat', message: 'bad VAT id' },
    false,
  );
  await settled(world);
});
afterAll(() => world.close());

describe('ops', () => {
  it('list: a table of the status view, and NDJSON with --json', async () => {
    const table = await world.cli(['ops', 'list', ...T]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/OPERATION.*KEY.*STATE/);
    expect(table.stdout).toContain(ids.confirmed);
    expect(table.stdout).toContain('INV-1');
    expect(table.stdout).toContain('4 operation(s) in acme');
    // compact: one line per row (header, its rule, 4 rows, frame), no checkpoint unless --verbose
    expect(table.stdout.split('\n').filter((l) => l.startsWith('├'))).toHaveLength(1);
    expect(table.stdout).not.toContain('read model at checkpoint');
    const verbose = await world.cli(['ops', 'list', ...T, '--verbose']);
    expect(verbose.stdout).toMatch(/read model at checkpoint \d+/);
    const rows = (await world.cli(['ops', 'list', ...T, '--state', 'unknown', '--json'])).json();
    expect(rows.map((r) => r.operationId).sort()).toEqual([ids.unknown, ids.unknown2].sort());
  });

  it('list follows cursors: --limit 1 per page still lists every row with --all', async () => {
    const all = (await world.cli(['ops', 'list', ...T, '--all', '--json'])).json();
    expect(all).toHaveLength(4);
    const one = await world.cli(['ops', 'list', ...T, '--limit', '1']);
    expect(one.stdout).toContain('1 operation(s) in acme (more: --limit or --all)');
  });

  it('show: by id or by key (the id computed locally), as fields or JSON', async () => {
    const byKey = await world.cli(['ops', 'show', 'acme/shop/invoice.create/order:1']);
    expect(byKey.code).toBe(0);
    expect(byKey.stdout).toContain(ids.confirmed);
    expect(byKey.stdout).toMatch(/state\s*│\s*confirmed/);
    expect(byKey.stdout).toMatch(/payload\s*│\s*\{"amount":10\}/);
    const doc = (await world.cli(['ops', 'show', ids.confirmed!, '--json'])).json()[0];
    expect(doc).toMatchObject({ operationId: ids.confirmed, state: 'confirmed', destinationRef: 'INV-1' });
    const past = (await world.cli(['ops', 'show', ids.confirmed!, '--at-revision', '0', '--json'])).json()[0];
    expect(past.state).toBe('in_progress');
  });

  it('without any API key, a refusal hints ledger login', async () => {
    const r = await world.cli(['ops', 'list', ...T], { env: { LEDGER_TOKEN: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ledger login');
  });

  it('show: an unknown operation is exit 1, a malformed reference exit 2', async () => {
    const missing = await world.cli(['ops', 'show', operationIdOf(key('order:404'))]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404 not-found');
    const bad = await world.cli(['ops', 'show', 'not-a-key']);
    expect(bad.code).toBe(2);
  });

  it('history: decision and audit events merged as a timeline; --at-revision cuts it', async () => {
    const h = await world.cli(['ops', 'history', ids.confirmed!]);
    expect(h.code).toBe(0);
    const lines = h.stdout.split('\n');
    const claimed = lines.findIndex((l) => l.includes('OperationClaimed'));
    const confirmed = lines.findIndex((l) => l.includes('OperationConfirmed'));
    const duplicate = lines.findIndex((l) => l.includes('DuplicateClaimPrevented'));
    expect(claimed).toBeGreaterThan(0);
    expect(confirmed).toBeGreaterThan(claimed);
    expect(duplicate).toBeGreaterThan(confirmed);
    expect(lines[claimed]).toContain('w1');
    expect(lines[duplicate]).toContain('audit');
    // One identity on every event: the API key's name, and the worker id where a worker acted.
    expect(lines[claimed]).toContain('test-root (w1)');
    expect(lines[confirmed]).toContain('test-root (w1)');
    const events = (await world.cli(['ops', 'history', ids.confirmed!, '--json'])).json();
    expect(events.map((e) => e.type)).toEqual([
      'OperationClaimed',
      'OperationConfirmed',
      'DuplicateClaimPrevented',
    ]);
    const cut = (await world.cli(['ops', 'history', ids.confirmed!, '--at-revision', '0', '--json'])).json();
    expect(cut.map((e) => e.type)).toEqual(['OperationClaimed']);
  });

  it('history: an Unknown reads with its true cause, as ops show and review say it', async () => {
    const h = await world.cli(['ops', 'history', ids.unknown!]);
    const unknown = h.stdout.split('\n').find((l) => l.includes('OutcomeUnknown'));
    expect(unknown).toContain('cause=reported_by_worker');
    expect(unknown).not.toContain('reported_timeout');
  });

  it('watch: resumes after an event id and prints the changes after it, stopping after --count', async () => {
    await settled(world);
    const { checkpoint } = await world.sdk.operations.list('acme', { limit: 1 });
    await world.sdk.worker.claim({ key: key('order:w', 'watch.me'), payload: {} });
    const run = await world.cli([
      'ops',
      'watch',
      ...T,
      '--action',
      'watch.me',
      '--after',
      checkpoint!,
      '--count',
      '1',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const [change] = run.json();
    expect(change.event).toBe('operation');
    expect(change.data).toMatchObject({
      operationId: operationIdOf(key('order:w', 'watch.me')),
      state: 'in_progress',
    });
    const human = await world.cli([
      'ops',
      'watch',
      ...T,
      '--action',
      'watch.me',
      '--after',
      checkpoint!,
      '--count',
      '1',
    ]);
    expect(human.stdout).toContain('OperationClaimed  in_progress  acme/shop/watch.me/order:w@1');
  });
});

describe('review and actions', () => {
  it('review: the queue oldest first with age; --reason unknown filters; --json is NDJSON', async () => {
    const r = await world.cli(['review', ...T]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/OPERATION.*REASON.*AGE/);
    expect(r.stdout.indexOf(ids.unknown!)).toBeLessThan(r.stdout.indexOf(ids.unknown2!));
    expect(r.stdout).toContain('final_failure');
    const unknown = (await world.cli(['review', ...T, '--reason', 'unknown', '--json'])).json();
    expect(unknown.map((i) => i.operationId)).toEqual([ids.unknown, ids.unknown2]);
    expect(unknown[0].reason).toBe('unknown_outcome');
    // Why it is unknown: the true label and the worker's own text, not a blanket "timeout".
    expect(unknown[0]).toMatchObject({
      unknownCause: 'reported_by_worker',
      unknownDetail: 'billing timed out',
    });
    expect(r.stdout).toContain('reported_by_worker: billing timed out');
    const show = await world.cli(['ops', 'show', ids.unknown!]);
    expect(show.stdout).toMatch(/unknown\s*│\s*reported_by_worker since .* attempt 1/);
    expect(show.stdout).toMatch(/why\s*│\s*billing timed out/);
  });

  it('resolve: prints the resulting state; a second resolve is refused with exit 1', async () => {
    const r = await world.cli([
      'resolve',
      ids.unknown!,
      'confirmed',
      '--ref',
      'INV-2',
      '--reason',
      'found in billing',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/state\s*│\s*confirmed/);
    expect((await world.sdk.operations.get(ids.unknown!)).destinationRef).toBe('INV-2');
    const again = await world.cli(['resolve', ids.unknown!, 'abandoned', '--reason', 'again', '--json']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not-unknown');
  });

  it('resolve without --reason, or confirmed without --ref, is usage (exit 2) and records nothing', async () => {
    expect((await world.cli(['resolve', ids.unknown2!, 'not_found'])).code).toBe(2);
    expect((await world.cli(['resolve', ids.unknown2!, 'confirmed', '--reason', 'x'])).code).toBe(2);
    expect((await world.cli(['resolve', ids.unknown2!, 'maybe', '--reason', 'x'])).code).toBe(2);
    expect((await world.sdk.operations.get(ids.unknown2!)).state).toBe('unknown');
  });

  it('evidence by key: found with a reference confirms; the checked fields are recorded', async () => {
    const ref = canonicalKey(key('order:3')).replace(/%3A/g, ':');
    const r = await world.cli([
      'evidence',
      ref,
      'found',
      '--ref',
      'INV-3',
      '--checked',
      'order=3',
      '--reason',
      'search',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json()[0].state).toBe('confirmed');
    const h = await world.sdk.operations.history(ids.unknown2!);
    const evidence = h.events.find((e) => e.type.startsWith('Recovery') || e.data.verdict === 'found');
    expect(evidence?.data).toMatchObject({ verdict: 'found', checkedFields: { order: 3 }, note: 'search' });
  });

  it('replay lets a final failure run again (→ released); approve of it is refused', async () => {
    expect((await world.cli(['approve', ids.failed!, '--reason', 'x'])).code).toBe(1);
    const r = await world.cli(['replay', ids.failed!, '--reason', 'VAT table fixed', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()[0].state).toBe('released');
  });

  it('approve and reject on approval-gated operations', async () => {
    await world.sdk.policies.set('acme', 'payout.send', {
      policy: { requireApproval: true },
      reason: 'test',
    });
    const a = key('p:1', 'payout.send');
    const b = key('p:2', 'payout.send');
    await world.sdk.worker.claim({ key: a, payload: {} }).catch(() => undefined);
    await world.sdk.worker.claim({ key: b, payload: {} }).catch(() => undefined);
    const approved = await world.cli([
      'approve',
      'acme/shop/payout.send/p:1',
      '--reason',
      'ok by finance',
      '--json',
    ]);
    expect(approved.json()[0].state).toBe('approved');
    const rejected = await world.cli(['reject', 'acme/shop/payout.send/p:2', '--reason', 'no', '--json']);
    expect(rejected.json()[0].state).toBe('rejected');
  });

  it('ack-duplicate acknowledges an open duplicate effect; nothing open is exit 1', async () => {
    const c = await world.sdk.worker.claim({ key: key('order:dup'), payload: {} });
    if (c.kind !== 'acquired') throw new Error('acquired expected');
    await world.sdk.worker.confirm(c.operationId, c.fencingToken, { destinationRef: 'A' });
    await world.sdk.worker
      .confirm(c.operationId, c.fencingToken, { destinationRef: 'B' })
      .catch(() => undefined);
    const r = await world.cli(['ack-duplicate', c.operationId, '--reason', 'B voided']);
    expect(r.code).toBe(0);
    expect((await world.cli(['ack-duplicate', c.operationId, '--reason', 'again'])).code).toBe(1);
  });

  it('an unreachable ledger is exit 3', async () => {
    const r = await world.cli(['ops', 'show', ids.confirmed!, '--url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/unavailable|fetch failed/);
  });
});
