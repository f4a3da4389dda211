// Key management outside HTTP: the first-run admin key of `npm start`, LEDGER_ADMIN_TOKEN, the
// `keys` CLI, and the migration (idempotent, concurrent start-ups) — on a real PGlite database.
import type { PGlite } from '@electric-sql/pglite';
import { generateToken } from '../../src/auth/api-key-token.js';
import { bootstrapAdminKey } from '../../src/auth/bootstrap-admin-key.js';
import { announceBootstrap } from '../../src/auth/announce-bootstrap.js';
import { installApiKeySchema } from '../../src/auth/sql/api-key-schema.js';
import { buildKeysProgram } from '../../src/admin-cli/keys-program.js';
import { DEFAULT_CONFIG } from '../../src/config/ledger-config.js';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { ApiKeyService } from '../../src/auth/api-key.service.js';
import { newPglite } from '../support/pglite-snapshot.js';

let db: PGlite;
let sql: SqlExecutor;
/**
 * One database for the file (starting a PGlite costs about a CPU-second, more than any test here),
 * the key table installed once; every test starts on that table emptied, as a fresh install leaves
 * it — the only table these tests write (the migration's own row is what a fresh install has).
 */
beforeAll(async () => {
  db = await newPglite(); // an initialised, empty cluster (no initdb)
  sql = new PgliteExecutor(db);
  await installApiKeySchema(sql);
});
beforeEach(async () => {
  await sql.query('delete from ledger_api_keys');
});
afterAll(() => db.close());

const service = () => new ApiKeyService(sql, DEFAULT_CONFIG, { now: () => Date.now() });

describe('migration', () => {
  it('is applied once, however often and concurrently it runs', async () => {
    const applied = await Promise.all([
      installApiKeySchema(sql),
      installApiKeySchema(sql),
      installApiKeySchema(sql),
    ]);
    expect(applied.flat()).toEqual([]);
    const { rows } = await sql.query<{ version: number }>(
      'select version from ledger_schema_migrations where version >= 200',
    );
    expect(rows.map((r) => Number(r.version))).toEqual([200]);
  });
});

describe('first run of npm start', () => {
  it('creates one admin * key when there are none, prints it once, and never again', async () => {
    const first = await bootstrapAdminKey(sql, DEFAULT_CONFIG);
    expect(first.kind).toBe('created');
    const token = (first as { token: string }).token;
    const printed: string[] = [];
    announceBootstrap(first, { log: () => undefined } as any, (s) => printed.push(s));
    expect(printed.join('')).toContain(token);
    expect(await service().authenticate(token)).toMatchObject({ tenant: '*', roles: ['admin'] });
    const again = await Promise.all([
      bootstrapAdminKey(sql, DEFAULT_CONFIG),
      bootstrapAdminKey(sql, DEFAULT_CONFIG),
    ]);
    expect(again.map((o) => o.kind)).toEqual(['existing-keys', 'existing-keys']);
    const { rows } = await sql.query('select * from ledger_api_keys');
    expect(rows).toHaveLength(1);
  });

  it('installs LEDGER_ADMIN_TOKEN instead, idempotently, and refuses a revoked or different one', async () => {
    const { token } = generateToken();
    const config = { ...DEFAULT_CONFIG, adminToken: token };
    expect(await bootstrapAdminKey(sql, config)).toMatchObject({ kind: 'from-environment', installed: true });
    expect(await bootstrapAdminKey(sql, config)).toMatchObject({
      kind: 'from-environment',
      installed: false,
    });
    expect(await service().authenticate(token)).toMatchObject({ tenant: '*', roles: ['admin'] });
    const other = token.slice(0, 29) + generateToken().token.slice(29);
    await expect(bootstrapAdminKey(sql, { ...config, adminToken: other })).rejects.toThrow(/different/);
    await service().revoke(token.slice(4, 28));
    await expect(bootstrapAdminKey(sql, config)).rejects.toThrow(/revoked/);
  });
});

describe('keys CLI', () => {
  async function run(...args: string[]): Promise<string[]> {
    const out: string[] = [];
    await buildKeysProgram({ openSql: async () => ({ sql, close: async () => {} }), out: (l) => out.push(l) })
      .exitOverride()
      .configureOutput({ writeErr: () => undefined, writeOut: () => undefined })
      .parseAsync(['node', 'keys', ...args]);
    return out;
  }

  it('create → list → rotate (overlap) → revoke, printing tokens only on create and rotate', async () => {
    const created = JSON.parse(
      (await run('create', '--tenant', 'acme', '--roles', 'worker,auditor', '--name', 'ci', '--json'))[0]!,
    );
    expect(created).toMatchObject({
      tenant: 'acme',
      roles: ['worker', 'auditor'],
      name: 'ci',
      status: 'active',
    });
    expect(await service().authenticate(created.token)).toMatchObject({ keyId: created.id, tenant: 'acme' });

    const listed = await run('list');
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain(created.id);
    expect(listed.join('\n')).not.toContain('olk_');

    const rotated = JSON.parse((await run('rotate', created.id, '--overlap-ms', '60000', '--json'))[0]!);
    expect(rotated.token).not.toBe(created.token);
    expect(await service().authenticate(created.token)).not.toBeNull(); // overlap
    expect(await service().authenticate(rotated.token)).not.toBeNull();

    expect((await run('revoke', created.id))[0]).toContain('revoked');
    expect(await service().authenticate(rotated.token)).toBeNull();
    expect(await service().authenticate(created.token)).toBeNull();
    await expect(run('rotate', created.id)).rejects.toThrow(/revoked/);
  });

  it('refuses bad roles, unknown ids and bad tenants; `token` prints a usable LEDGER_ADMIN_TOKEN', async () => {
    await expect(run('create', '--tenant', 'acme', '--roles', 'root', '--name', 'x')).rejects.toThrow();
    await expect(run('revoke', 'f'.repeat(24))).rejects.toThrow(/no API key/);
    await expect(run('create', '--tenant', ' acme', '--roles', 'worker', '--name', 'x')).rejects.toThrow(
      /tenant/,
    );
    const [token] = await run('token');
    expect(token).toMatch(/^olk_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/);
    expect(await sql.query('select * from ledger_api_keys').then((r) => r.rows.length)).toBe(0);
  });
});
