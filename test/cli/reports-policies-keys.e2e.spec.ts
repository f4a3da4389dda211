// conflicts, metrics, reconcile, policies, keys over the admin routes, and login profiles — the CLI
// against a real in-process ledger, in table and --json form.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { key, settled, startCliWorld, type CliWorld } from './support/cli-harness.js';

let world: CliWorld;
const T = ['--tenant', 'acme'];

beforeAll(async () => {
  world = await startCliWorld();
  const c = await world.sdk.worker.claim({
    key: key('order:1'),
    payload: { amount: 100, lines: [1] },
    workerId: 'w1',
  });
  if (c.kind !== 'acquired') throw new Error('acquired expected');
  await world.sdk.worker.confirm(c.operationId, c.fencingToken, { destinationRef: 'INV-1' });
  await world.sdk.worker.claim({ key: key('order:1'), payload: { amount: 100, lines: [1] } }); // replay
  await world.sdk.worker
    .claim({ key: key('order:1'), payload: { amount: 120, lines: [1] }, workerId: 'w9' })
    .catch(() => null);
  await settled(world);
});
afterAll(() => world.close());

it('conflicts: the field diff readably, and the whole item with --json', async () => {
  const r = await world.cli(['conflicts', ...T]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('~ /amount: 100 → 120');
  expect(r.stdout).toContain('w9');
  const [item] = (await world.cli(['conflicts', ...T, '--json'])).json();
  expect(item.diff).toEqual([{ path: '/amount', kind: 'changed', existing: 100, incoming: 120 }]);
});

it('metrics: counters per action; --json the whole answer', async () => {
  const r = await world.cli(['metrics', ...T]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/COUNTER.*TOTAL.*invoice\.create/);
  expect(r.stdout).toMatch(/claims\s*│\s*1\s*│\s*1/);
  const [m] = (await world.cli(['metrics', ...T, '--bucket', 'hour', '--json'])).json();
  expect(m.totals).toMatchObject({ claims: 1, payloadConflicts: 1 });
  expect(m.bucket).toBe('hour');
});

it('reconcile: totals, and every line streamed to a CSV file', async () => {
  const r = await world.cli([
    'reconcile',
    ...T,
    '--action',
    'invoice.create',
    '--from',
    '1d',
    '--to',
    '2099-01-01',
    '--csv',
    'rec.csv',
  ]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('every line written to rec.csv');
  const csv = await readFile(join(world.dir, 'rec.csv'), 'utf8');
  expect(csv.split('\n')[0]).toMatch(/^operationId,source,action,subject/);
  expect(csv).toContain('INV-1');
  const bad = await world.cli([
    'reconcile',
    ...T,
    '--action',
    'x',
    '--from',
    '2025-02-01',
    '--to',
    '2025-01-01',
  ]);
  expect(bad.code).toBe(2);
});

it('policies set merges --set over the policy in force; get and history show it', async () => {
  const set = await world.cli([
    'policies',
    'set',
    'invoice.create',
    ...T,
    '--set',
    'requireApproval=true',
    '--set',
    'defaultLeaseMs=60000',
    '--reason',
    'CHG-7',
  ]);
  expect(set.code).toBe(0);
  const [p] = (await world.cli(['policies', 'get', 'invoice.create', ...T, '--json'])).json();
  expect(p).toMatchObject({ version: 1, source: 'action', reason: 'CHG-7' });
  expect(p.policy).toMatchObject({ requireApproval: true, defaultLeaseMs: 60000 });
  await world.cli([
    'policies',
    'set',
    'invoice.create',
    ...T,
    '--set',
    'requireApproval=false',
    '--reason',
    'CHG-8',
  ]);
  const [v2] = (await world.cli(['policies', 'get', 'invoice.create', ...T, '--json'])).json();
  expect(v2.policy).toMatchObject({ requireApproval: false, defaultLeaseMs: 60000 }); // kept from v1
  const history = (await world.cli(['policies', 'history', 'invoice.create', ...T, '--json'])).json();
  expect(history.map((h) => h.reason)).toEqual(['CHG-7', 'CHG-8']);
  const table = await world.cli(['policies', 'history', 'invoice.create', ...T]);
  expect(table.stdout).toMatch(/VERSION.*SET BY.*REASON/);
  const stale = await world.cli([
    'policies',
    'set',
    'invoice.create',
    ...T,
    '--set',
    'replayAllowed=false',
    '--expected-version',
    '1',
    '--reason',
    'late',
  ]);
  expect(stale.code).toBe(1);
  expect(stale.stderr).toContain('policy-version-conflict');
  const invalid = await world.cli([
    'policies',
    'set',
    'invoice.create',
    ...T,
    '--set',
    'maxLeaseMs=5',
    '--reason',
    'x',
  ]);
  expect(invalid.code).toBe(2);
  expect(invalid.stderr).toContain('policy.maxLeaseMs');
});

it('keys over the admin routes: create (token shown once), list, rotate, revoke', async () => {
  const created = (
    await world.cli([
      'keys',
      'create',
      '--for-tenant',
      'acme',
      '--roles',
      'operator,auditor',
      '--name',
      'alice',
      '--json',
    ])
  ).json()[0];
  expect(created).toMatchObject({
    tenant: 'acme',
    roles: ['operator', 'auditor'],
    name: 'alice',
    status: 'active',
  });
  expect(created.token).toMatch(/^olk_/);
  const list = await world.cli(['keys', 'list', '--for-tenant', 'acme']);
  expect(list.stdout).toContain(created.id);
  expect(list.stdout).not.toContain(created.token);
  const rotated = (await world.cli(['keys', 'rotate', created.id, '--overlap', '1m', '--json'])).json()[0];
  expect(rotated.token).not.toBe(created.token);
  const revoked = (await world.cli(['keys', 'revoke', created.id, '--json'])).json()[0];
  expect(revoked.status).toBe('revoked');
  expect((await world.cli(['ops', 'list', ...T], { env: { LEDGER_TOKEN: rotated.token } })).code).toBe(1); // 401
  expect((await world.cli(['keys', 'revoke', 'nothex'])).code).toBe(2);
});

it("login stores a 0600 profile; the key's tenant is learnt; a * key needs --tenant", async () => {
  const op = await world.ledger.createKey({ tenant: 'acme', roles: ['operator', 'auditor', 'admin'] });
  const env = { LEDGER_URL: undefined, LEDGER_TOKEN: undefined };
  const login = await world.cli(
    ['login', '--profile', 'prod', '--url', world.ledger.url, '--token', op.token],
    { env },
  );
  expect(login.code).toBe(0);
  expect(login.stdout).toContain('tenant acme');
  const path = join(world.dir, 'config.json');
  expect((await stat(path)).mode & 0o777).toBe(0o600);
  const config = JSON.parse(await readFile(path, 'utf8'));
  expect(config.profiles.prod).toEqual({ url: world.ledger.url, token: op.token, tenant: 'acme' });
  const review = await world.cli(['review', '--profile', 'prod', '--json'], { env });
  expect(review.code).toBe(0);
  const profiles = await world.cli(['profiles'], { env });
  expect(profiles.stdout).toContain('prod');
  expect(profiles.stdout).not.toContain(op.token);
  // the root key is a * key: list commands need --tenant
  const star = await world.cli(['review']);
  expect(star.code).toBe(2);
  expect(star.stderr).toContain('--tenant');
  expect((await world.cli(['review', '--profile', 'nope'], { env })).code).toBe(2);
  const bad = await world.cli(['login', '--url', world.ledger.url, '--token', 'olk_bad'], { env });
  expect(bad.code).toBe(1);
});
