// Tenant isolation (docs/api.md "Authentication, roles and tenants"): every route × every role × own/other tenant
// → the expected status. A key never acts outside its tenant, a read of another tenant's operation
// is indistinguishable from an unknown id, and a refused request changes nothing in the store.
import type { Role } from '../../src/auth/role.js';
import type { LedgerClient, TestResponse } from '../support/http-client.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { claimed, eventCount, freshKey, keyCount } from './support/auth-fixtures.js';

const OWN = 'acme';
const OTHER = 'globex';

let ledger: TestLedger;
const clients = new Map<string, LedgerClient>();

/** Who calls: a key of tenant `acme` with one role, `*` keys, or no key at all. */
const CALLERS: { name: string; tenant: string | null; roles: Role[] }[] = [
  { name: 'no key', tenant: null, roles: [] },
  { name: 'acme worker', tenant: OWN, roles: ['worker'] },
  { name: 'acme operator', tenant: OWN, roles: ['operator'] },
  { name: 'acme auditor', tenant: OWN, roles: ['auditor'] },
  { name: 'acme admin', tenant: OWN, roles: ['admin'] },
  { name: '* worker', tenant: '*', roles: ['worker'] },
  { name: '* admin+auditor', tenant: '*', roles: ['admin', 'auditor'] },
];

interface Prepared {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
}

/** One route: who may call it, how to set up a target in a tenant, and what success looks like. */
interface RouteCase {
  readonly name: string;
  /** Roles admitted; `public` admits everyone, without a key. */
  readonly roles: Role[] | 'public';
  readonly prepare: (tenant: string) => Promise<Prepared>;
  readonly ok: number;
  /** The answer to a permitted role naming/addressing another tenant. */
  readonly otherTenant: { status: number; code: string } | 'batch-slot-403';
}

const root = () => ledger.client;
const op = (id: string, action: string, body: unknown): Prepared => ({
  method: 'POST',
  path: `/v1/operations/${id}/${action}`,
  body,
});
async function keyOf(tenant: string): Promise<string> {
  return (await root().post('/v1/admin/keys', { tenant, roles: ['worker'], name: 'target' })).body.id;
}

const WORKER_ROUTE = (
  name: string,
  action: string,
  body: unknown,
  before?: (c: LedgerClient, id: string) => Promise<unknown>,
): RouteCase => ({
  name,
  roles: ['worker'],
  prepare: async (tenant) => {
    const id = await claimed(root(), tenant);
    if (before) await before(root(), id);
    return op(id, action, body);
  },
  ok: 200,
  otherTenant: { status: 404, code: 'not-found' },
});

const READERS: Role[] = ['auditor', 'operator', 'worker'];
const ROUTES: RouteCase[] = [
  {
    name: 'POST /v1/claims',
    roles: ['worker'],
    prepare: async (tenant) => ({
      method: 'POST',
      path: '/v1/claims',
      body: { key: freshKey(tenant), payload: { a: 1 } },
    }),
    ok: 201,
    otherTenant: { status: 403, code: 'forbidden-tenant' },
  },
  {
    name: 'POST /v1/claims/batch',
    roles: ['worker'],
    prepare: async (tenant) => ({
      method: 'POST',
      path: '/v1/claims/batch',
      body: { claims: [{ key: freshKey(tenant), payload: { a: 1 } }] },
    }),
    ok: 200,
    otherTenant: 'batch-slot-403',
  },
  WORKER_ROUTE('POST …/steps/{step}/start', 'steps/send/start', { fencingToken: 1 }),
  WORKER_ROUTE('POST …/steps/{step}/complete', 'steps/send/complete', { fencingToken: 1 }, (c, id) =>
    c.op(id, 'steps/send/start', { fencingToken: 1 }),
  ),
  WORKER_ROUTE(
    'POST …/steps/{step}/not-performed',
    'steps/send/not-performed',
    { fencingToken: 1, reason: 'ECONNREFUSED' },
    (c, id) => c.op(id, 'steps/send/start', { fencingToken: 1 }),
  ),
  WORKER_ROUTE('POST …/confirm', 'confirm', { fencingToken: 1, destinationRef: 'D-1' }),
  WORKER_ROUTE('POST …/fail', 'fail', {
    fencingToken: 1,
    error: { code: 'e', message: 'm' },
    retryable: true,
  }),
  WORKER_ROUTE('POST …/release', 'release', { fencingToken: 1 }),
  WORKER_ROUTE('POST …/unknown', 'unknown', { fencingToken: 1, reason: 'timeout' }),
  {
    name: 'POST …/resolve',
    roles: ['operator'],
    prepare: async (tenant) => {
      const id = await claimed(root(), tenant);
      await root().op(id, 'unknown', { fencingToken: 1, reason: 'timeout' });
      return op(id, 'resolve', { resolution: 'abandoned', reason: 'checked' });
    },
    ok: 200,
    otherTenant: { status: 404, code: 'not-found' },
  },
  {
    name: 'GET /v1/operations/{id}',
    roles: READERS,
    prepare: async (tenant) => ({ method: 'GET', path: `/v1/operations/${await claimed(root(), tenant)}` }),
    ok: 200,
    otherTenant: { status: 404, code: 'not-found' },
  },
  {
    name: 'GET /v1/operations/{id}/history',
    roles: READERS,
    prepare: async (tenant) => ({
      method: 'GET',
      path: `/v1/operations/${await claimed(root(), tenant)}/history`,
    }),
    ok: 200,
    otherTenant: { status: 404, code: 'not-found' },
  },
  {
    name: 'POST /v1/admin/keys',
    roles: ['admin'],
    prepare: async (tenant) => ({
      method: 'POST',
      path: '/v1/admin/keys',
      body: { tenant, roles: ['worker'], name: 'ci' },
    }),
    ok: 201,
    otherTenant: { status: 403, code: 'forbidden-tenant' },
  },
  {
    name: 'GET /v1/admin/keys?tenant=',
    roles: ['admin'],
    prepare: async (tenant) => ({ method: 'GET', path: `/v1/admin/keys?tenant=${tenant}` }),
    ok: 200,
    otherTenant: { status: 403, code: 'forbidden-tenant' },
  },
  {
    name: 'POST /v1/admin/keys/{id}/revoke',
    roles: ['admin'],
    prepare: async (tenant) => ({ method: 'POST', path: `/v1/admin/keys/${await keyOf(tenant)}/revoke` }),
    ok: 200,
    otherTenant: { status: 404, code: 'not-found' },
  },
  {
    name: 'POST /v1/admin/keys/{id}/rotate',
    roles: ['admin'],
    prepare: async (tenant) => ({
      method: 'POST',
      path: `/v1/admin/keys/${await keyOf(tenant)}/rotate`,
      body: { overlapMs: 1000 },
    }),
    ok: 200,
    otherTenant: { status: 404, code: 'not-found' },
  },
  {
    name: 'GET /health/ready',
    roles: 'public',
    prepare: async () => ({ method: 'GET', path: '/health/ready' }),
    ok: 200,
    otherTenant: { status: 200, code: '' },
  },
];

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  for (const c of CALLERS) {
    clients.set(
      c.name,
      c.tenant === null
        ? ledger.client.as(undefined)
        : (await ledger.createKey({ tenant: c.tenant, roles: c.roles })).client,
    );
  }
});
afterAll(() => ledger.close());

type Expectation = { status: number; code?: string; batchSlot?: number };

function expected(route: RouteCase, caller: (typeof CALLERS)[number], side: 'own' | 'other'): Expectation {
  if (route.roles === 'public') return { status: route.ok };
  if (caller.tenant === null) return { status: 401, code: 'unauthenticated' };
  if (!route.roles.some((r) => caller.roles.includes(r))) return { status: 403, code: 'forbidden' };
  if (side === 'own' || caller.tenant === '*')
    return { status: route.ok, ...(route.otherTenant === 'batch-slot-403' ? { batchSlot: 201 } : {}) };
  if (route.otherTenant === 'batch-slot-403') return { status: 200, batchSlot: 403 };
  return route.otherTenant;
}

const cells = ROUTES.flatMap((route) =>
  CALLERS.flatMap((caller) =>
    (['own', 'other'] as const).map((side) => {
      const want = expected(route, caller, side);
      const answer = `${want.status}${want.code ? ' ' + want.code : ''}${want.batchSlot ? ` (slot ${want.batchSlot})` : ''}`;
      return [route.name, caller.name, side, answer, route, caller] as const;
    }),
  ),
);

describe('isolation matrix: route × caller × tenant', () => {
  it.each(cells)('%s as %s on the %s tenant → %s', async (_r, _c, side, _a, route, caller) => {
    const target = await route.prepare(side === 'own' ? OWN : OTHER);
    const want = expected(route, caller, side);
    const [eventsBefore, keysBefore] = [await eventCount(ledger), await keyCount(ledger)];
    const client = clients.get(caller.name)!;
    const res: TestResponse = await client.request(target.method, target.path, target.body);

    expect({ status: res.status, code: res.status >= 400 ? res.body.code : undefined }).toEqual({
      status: want.status,
      code: want.status >= 400 ? want.code : undefined,
    });
    if (want.batchSlot !== undefined) {
      expect(res.body.results[0].status).toBe(want.batchSlot);
      if (want.batchSlot === 403) expect(res.body.results[0].body.code).toBe('forbidden-tenant');
    }
    if (res.status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    if (res.status >= 400) expect(res.headers.get('content-type')).toContain('application/problem+json');
    const refused = res.status >= 400 || want.batchSlot === 403;
    if (refused) {
      expect(await eventCount(ledger)).toBe(eventsBefore);
      expect(await keyCount(ledger)).toBe(keysBefore);
    }
  });
});

describe('no existence oracle across tenants', () => {
  it("another tenant's operation answers exactly like an id that never existed", async () => {
    const acmeWorker = clients.get('acme worker')!;
    const theirs = await claimed(root(), OTHER);
    const never = '00000000-0000-5000-8000-00000000abcd';
    for (const path of ['', '/history']) {
      const a = await clients.get('acme auditor')!.get(`/v1/operations/${theirs}${path}`);
      const b = await clients.get('acme auditor')!.get(`/v1/operations/${never}${path}`);
      expect(a.status).toBe(404);
      expect({ ...a.body, detail: a.body.detail.replace(theirs, '<id>') }).toEqual({
        ...b.body,
        detail: b.body.detail.replace(never, '<id>'),
      });
      expect([...a.headers.keys()].filter((h) => h !== 'date' && h !== 'content-length').sort()).toEqual(
        [...b.headers.keys()].filter((h) => h !== 'date' && h !== 'content-length').sort(),
      );
    }
    const confirmTheirs = await acmeWorker.op(theirs, 'confirm', { fencingToken: 1 });
    const confirmNever = await acmeWorker.op(never, 'confirm', { fencingToken: 1 });
    expect([confirmTheirs.status, confirmNever.status]).toEqual([404, 404]);
    expect(confirmTheirs.body.title).toBe(confirmNever.body.title);
    expect((await root().status(theirs)).body.state).toBe('in_progress');
  });

  it('an admin of one tenant lists only its own keys and cannot create a * key', async () => {
    const admin = clients.get('acme admin')!;
    const list = await admin.get('/v1/admin/keys');
    expect(list.status).toBe(200);
    expect(list.body.keys.length).toBeGreaterThan(0);
    expect(list.body.keys.every((k: any) => k.tenant === OWN)).toBe(true);
    expect(JSON.stringify(list.body)).not.toMatch(/hash|olk_/);
    const star = await admin.post('/v1/admin/keys', { tenant: '*', roles: ['worker'], name: 'escalate' });
    expect(star.status).toBe(403);
    expect(star.body.code).toBe('forbidden-tenant');
  });
});

describe('actor comes from the key', () => {
  it('records the key holder as actor and a differing body actor as requestedActor', async () => {
    const operator = await ledger.createKey({ tenant: OWN, roles: ['operator'], name: 'ops:eva' });
    const id = await claimed(root(), OWN);
    await root().op(id, 'unknown', { fencingToken: 1, reason: 'timeout' });
    const res = await operator.client.op(id, 'resolve', {
      resolution: 'abandoned',
      reason: 'gone',
      actor: 'ops:mallory',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ actor: 'ops:eva', requestedActor: 'ops:mallory' });
    const resolved = (await root().history(id)).body.events.find((e: any) => e.type === 'OperationResolved');
    expect(resolved.data).toMatchObject({ actor: 'ops:eva', requestedActor: 'ops:mallory' });
    expect(resolved.metadata.keyId).toBe(operator.key.id);
  });

  it('a resolve without actor is accepted (actor optional) and records the key holder', async () => {
    const operator = await ledger.createKey({ tenant: OWN, roles: ['operator'], name: 'ops:ida' });
    const id = await claimed(root(), OWN);
    await root().op(id, 'unknown', { fencingToken: 1, reason: 'timeout' });
    const res = await operator.client.op(id, 'resolve', { resolution: 'not_found', reason: 'not there' });
    expect(res.status).toBe(200);
    expect(res.body.actor).toBe('ops:ida');
    expect(res.body.requestedActor).toBeUndefined();
  });
});
