import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throw-away database of one benchmark run. */
export interface BenchDatabase {
  readonly name: string;
  readonly connectionString: string;
  /** Drops the database, disconnecting remaining sessions; safe to call twice. */
  drop(): Promise<void>;
}

/**
 * Creates an empty database `ledger_bench_<16 hex>` on the server of `adminUrl` (a URL whose user
 * may create databases), so every run starts from the same empty state.
 * @throws the pg connection error when the server cannot be reached.
 */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `ledger_bench_${randomBytes(8).toString('hex')}`;
  await admin(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    name,
    connectionString: url.toString(),
    drop: () => (dropped ??= admin(adminUrl, `drop database if exists ${name} with (force)`)),
  };
}

/** `select version()` of the server at `url`, e.g. `PostgreSQL 15.20 (Debian …) on x86_64…`. */
export async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('select version()');
    return rows[0]!.version;
  } finally {
    await client.end();
  }
}

/** The server's `max_connections` (how many servers' pools a run can hold at once). */
export async function maxConnections(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ max_connections: string }>('show max_connections');
    return Number(rows[0]!.max_connections);
  } finally {
    await client.end();
  }
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
