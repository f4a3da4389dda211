import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * URL of a PostgreSQL database the tests may use to create and drop databases.
 * `LEDGER_TEST_PG_ADMIN_URL`, default `postgres://postgres@127.0.0.1:5432/postgres` (trust auth).
 */
export const ADMIN_URL =
  process.env['LEDGER_TEST_PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A throw-away database: its URL and `drop()` (idempotent, disconnects remaining sessions). */
export interface TestDatabase {
  readonly name: string;
  readonly connectionString: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database named `<prefix>_<16 hex>` (default prefix `ledger_test`) on the server
 * of {@link ADMIN_URL}. Call `drop()` in `afterAll`.
 */
export async function createTestDatabase(prefix = 'ledger_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(8).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Bad test database prefix: ${prefix}`);
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    name,
    connectionString: url.toString(),
    drop: () => (dropped ??= admin(`drop database if exists ${name} with (force)`)),
  };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
