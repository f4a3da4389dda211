// Authentication (docs/security.md): bearer API keys, rotation with overlap,
// revocation, refusals (401/403/429) as problem+json, and deny-before-parse on /v1.
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../src/event-store/sql-executor.token.js';
import { buildKeysProgram } from '../../src/admin-cli/keys-program.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { eventCount, freshKey } from './support/auth-fixtures.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
});
afterAll(() => ledger.close());

const sqlOf = (l: TestLedger) => l.app.get<SqlExecutor>(SQL_EXECUTOR);

describe('401 unauthenticated', () => {
  const malformed: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer without token', { authorization: 'Bearer ' }],
    ['not an olk_ token', { authorization: 'Bearer abc.def' }],
    ['unknown key id', { authorization: `Bearer olk_${'0'.repeat(24)}_${'A'.repeat(43)}` }],
  ];
  it.each(malformed)('%s → 401 with a Bearer challenge, nothing recorded', async (_name, headers) => {
    const before = await eventCount(ledger);
    const res = await ledger.client.post(
      '/v1/claims',
      { key: freshKey('acme'), payload: 1 },
      { headers: { authorization: '', ...headers } },
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      status: 401,
      code: 'unauthenticated',
      type: expect.stringMatching(/\/unauthenticated$/),
    });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="operation-ledger"/);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await eventCount(ledger)).toBe(before);
  });

  it('a wrong secret for a real key id answers exactly like an unknown key', async () => {
    const { key, token } = await ledger.createKey({ tenant: 'acme', roles: ['worker'] });
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const wrong = await ledger.client.as(flipped).claim(freshKey('acme'), 1);
    const unknown = await ledger.client
      .as(`olk_${'f'.repeat(24)}_${token.split('_').slice(2).join('_')}`)
      .claim(freshKey('acme'), 1);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.headers.get('www-authenticate')).toBe(unknown.headers.get('www-authenticate'));
    expect(key.id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('accepts the scheme in any case (RFC 9110 §11.1)', async () => {
    const res = await ledger.client.post(
      '/v1/claims',
      { key: freshKey('acme'), payload: 1 },
      { headers: { authorization: `bearer ${ledger.rootToken}` } },
    );
    expect(res.status).toBe(201);
  });

  it('refuses an unauthenticated 20 MB batch before reading its body (401, not 413)', async () => {
    const res = await ledger.client.post('/v1/claims/batch', undefined, {
      raw: '[' + ' '.repeat(20 * 1024 * 1024) + ']',
      headers: { authorization: '' },
    });
    expect(res.status).toBe(401);
  });

  it('answers 401 for unknown /v1 routes without a key (no route oracle), 404 with one', async () => {
    expect((await ledger.client.as(undefined).get('/v1/nothing-here')).status).toBe(401);
    expect((await ledger.client.get('/v1/nothing-here')).status).toBe(404);
  });

  it('keeps health and the OpenAPI document public', async () => {
    const anonymous = ledger.client.as(undefined);
    expect((await anonymous.get('/health/ready')).status).toBe(200);
    expect((await anonymous.get('/health/live')).status).toBe(200);
    expect((await anonymous.get('/docs-json')).status).toBe(200);
  });
});

describe('keys are stored only as hashes', () => {
  it('the key table holds no token and no secret', async () => {
    const { token } = await ledger.createKey({ tenant: 'acme', roles: ['auditor'] });
    const { rows } = await sqlOf(ledger).query('select * from ledger_api_keys');
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.split('_').slice(2).join('_'));
    expect(dump).not.toContain(ledger.rootToken);
  });

  it('answers the token once: listing never shows it', async () => {
    const created = await ledger.client.post('/v1/admin/keys', {
      tenant: 'acme',
      roles: ['worker'],
      name: 'ci',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenant: 'acme', roles: ['worker'], name: 'ci', status: 'active' });
    expect(created.body.token).toMatch(new RegExp(`^olk_${created.body.id}_[A-Za-z0-9_-]{43}$`));
    const list = await ledger.client.get('/v1/admin/keys?tenant=acme');
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect(list.body.keys.find((k: any) => k.id === created.body.id)).toMatchObject({
      name: 'ci',
      status: 'active',
    });
    expect((await ledger.client.as(created.body.token).claim(freshKey('acme'), 1)).status).toBe(201);
  });

  it.each([
    [{ tenant: 'acme', roles: [], name: 'x' }],
    [{ tenant: 'acme', roles: ['root'], name: 'x' }],
    [{ tenant: ' acme', roles: ['worker'], name: 'x' }],
    [{ tenant: 'acme', roles: ['worker'] }],
    [{ tenant: 'acme', roles: ['worker'], name: 'x', secret: 'mine' }],
  ])('refuses a bad key request %j with 400', async (body) => {
    const res = await ledger.client.post('/v1/admin/keys', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
  });
});

describe('rotation with overlap, and revocation', () => {
  it('the old secret works during the overlap (server clock) and not after; the new one works throughout', async () => {
    const { key, token: oldToken } = await ledger.createKey({ tenant: 'acme', roles: ['worker'] });
    const rotated = await ledger.client.post(`/v1/admin/keys/${key.id}/rotate`, { overlapMs: 60_000 });
    expect(rotated.status).toBe(200);
    const newToken = rotated.body.token;
    expect(newToken).not.toBe(oldToken);
    expect(rotated.body.previousSecretExpiresAt).toBe(new Date(ledger.clock.now() + 60_000).toISOString());
    expect((await ledger.client.as(oldToken).claim(freshKey('acme'), 1)).status).toBe(201);
    expect((await ledger.client.as(newToken).claim(freshKey('acme'), 1)).status).toBe(201);
    ledger.clock.advance(59_999);
    expect((await ledger.client.as(oldToken).claim(freshKey('acme'), 1)).status).toBe(201);
    ledger.clock.advance(1);
    expect((await ledger.client.as(oldToken).claim(freshKey('acme'), 1)).status).toBe(401);
    expect((await ledger.client.as(newToken).claim(freshKey('acme'), 1)).status).toBe(201);
  });

  it('a rotation without overlap ends the old secret at once; a second rotation ends the first overlap', async () => {
    const { key, token: t1 } = await ledger.createKey({ tenant: 'acme', roles: ['worker'] });
    const t2 = (await ledger.client.post(`/v1/admin/keys/${key.id}/rotate`)).body.token;
    expect((await ledger.client.as(t1).claim(freshKey('acme'), 1)).status).toBe(401);
    const t3 = (await ledger.client.post(`/v1/admin/keys/${key.id}/rotate`, { overlapMs: 60_000 })).body
      .token;
    const t4 = (await ledger.client.post(`/v1/admin/keys/${key.id}/rotate`, { overlapMs: 60_000 })).body
      .token;
    const statuses = await Promise.all(
      [t2, t3, t4].map((t) => ledger.client.as(t).claim(freshKey('acme'), 1)),
    );
    expect(statuses.map((s) => s.status)).toEqual([401, 201, 201]);
  });

  it('revocation takes effect at once, is idempotent, and a revoked key cannot be rotated back to life', async () => {
    const { key, client } = await ledger.createKey({ tenant: 'acme', roles: ['worker'] });
    expect((await client.claim(freshKey('acme'), 1)).status).toBe(201);
    const revoked = await ledger.client.post(`/v1/admin/keys/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'revoked', revokedAt: expect.any(String) });
    expect((await client.claim(freshKey('acme'), 1)).status).toBe(401);
    expect((await ledger.client.post(`/v1/admin/keys/${key.id}/revoke`)).body.revokedAt).toBe(
      revoked.body.revokedAt,
    );
    const rotate = await ledger.client.post(`/v1/admin/keys/${key.id}/rotate`, { overlapMs: 1000 });
    expect(rotate.status).toBe(409);
    expect(rotate.body.code).toBe('key-revoked');
  });

  it('a key may revoke itself; unknown and malformed ids answer 404 and 400', async () => {
    const admin = await ledger.createKey({ tenant: 'acme', roles: ['admin'] });
    expect((await admin.client.post(`/v1/admin/keys/${admin.key.id}/revoke`)).status).toBe(200);
    expect((await admin.client.get('/v1/admin/keys')).status).toBe(401);
    expect((await ledger.client.post(`/v1/admin/keys/${'e'.repeat(24)}/revoke`)).status).toBe(404);
    expect((await ledger.client.post('/v1/admin/keys/NOT-AN-ID/revoke')).status).toBe(400);
  });

  it('a rotation made by the CLI (another process) is honoured at once: the new token works despite the cache', async () => {
    const { key, client: oldClient } = await ledger.createKey({ tenant: 'acme', roles: ['worker'] });
    expect((await oldClient.claim(freshKey('acme'), 1)).status).toBe(201); // now cached
    const out: string[] = [];
    const program = buildKeysProgram({
      openSql: async () => ({ sql: sqlOf(ledger), close: async () => {} }),
      out: (l) => out.push(l),
      now: () => ledger.clock.now(),
    });
    await program.parseAsync(['node', 'keys', 'rotate', key.id, '--json']);
    const newToken = JSON.parse(out[0]!).token;
    expect((await ledger.client.as(newToken).claim(freshKey('acme'), 1)).status).toBe(201);
  });
});

describe('403 forbidden: the key lacks the role', () => {
  it('an auditor cannot claim, an operator cannot confirm, a worker cannot resolve or manage keys', async () => {
    const [auditor, operator, worker] = await Promise.all(
      (['auditor', 'operator', 'worker'] as const).map((r) =>
        ledger.createKey({ tenant: 'acme', roles: [r] }),
      ),
    );
    const id = (await ledger.client.claim(freshKey('acme'), 1)).body.operationId;
    const answers = await Promise.all([
      auditor!.client.claim(freshKey('acme'), 1),
      operator!.client.op(id, 'confirm', { fencingToken: 1 }),
      worker!.client.op(id, 'resolve', { resolution: 'abandoned', reason: 'r' }),
      worker!.client.get('/v1/admin/keys'),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(403);
      expect(a.body.code).toBe('forbidden');
    }
    expect((await ledger.client.status(id)).body.state).toBe('in_progress');
  });
});

describe('429 rate-limited, per key', () => {
  let limited: TestLedger;
  beforeAll(async () => {
    limited = await startTestLedger('postgres', { rateLimitPerKey: 5, rateLimitWindowMs: 60_000 });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After past the limit of one key, and not for another key or health', async () => {
    const a = await limited.createKey({ tenant: 'acme', roles: ['worker', 'auditor'] });
    const b = await limited.createKey({ tenant: 'acme', roles: ['worker'] });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await a.client.claim(freshKey('acme'), 1)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const before = await eventCount(limited);
    const over = await a.client.claim(freshKey('acme'), 1);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate-limited', status: 429 });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('content-type')).toContain('application/problem+json');
    expect((await a.client.get('/v1/operations/00000000-0000-5000-8000-000000000000')).status).toBe(429);
    expect(await eventCount(limited)).toBe(before);
    expect((await b.client.claim(freshKey('acme'), 1)).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await a.client.as(undefined).get('/health/live')).status).toBe(200);
  });
});

describe('LEDGER_AUTH=disabled', () => {
  let open: TestLedger;
  beforeAll(async () => {
    open = await startTestLedger('postgres', { auth: 'disabled' });
  });
  afterAll(() => open.close());

  it('serves requests without a key, records the body actor, and refuses to listen beyond loopback', async () => {
    const anonymous = open.client.as(undefined);
    const claim = await anonymous.claim(freshKey('any-tenant'), 1);
    expect(claim.status).toBe(201);
    const id = claim.body.operationId;
    await anonymous.op(id, 'unknown', { fencingToken: 1, reason: 't' });
    const resolved = await anonymous.op(id, 'resolve', {
      resolution: 'abandoned',
      reason: 'r',
      actor: 'ops:local',
    });
    expect(resolved.body.actor).toBe('ops:local');
    await expect(open.app.listen(0, '0.0.0.0')).rejects.toThrow(/loopback|refusing/);
    await expect(open.app.listen(0)).rejects.toThrow(/all interfaces/);
  });
});
