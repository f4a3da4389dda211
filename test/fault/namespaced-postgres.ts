import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const BIN = process.env['LEDGER_FAULT_PG_BIN'] ?? '/usr/lib/postgresql/15/bin';

/** A throw-away PostgreSQL server inside a network namespace (the machine's cluster is untouched). */
export interface NamespacedPostgres {
  /** URL of `database` as user postgres (trust), at `host:5432` — the server's own address. */
  url(database?: string): string;
  query<T extends pg.QueryResultRow>(sql: string, database?: string): Promise<T[]>;
  /** Stops it (`pg_ctl stop -m immediate`) and deletes its directory. Idempotent. */
  destroy(): Promise<void>;
}

/**
 * initdb + `pg_ctl start` as the `postgres` OS user, started with `ip netns exec netns`, listening on
 * `host:5432` there and trusting 10.0.0.0/8 (the test network's addresses).
 */
export async function startNamespacedPostgres(netns: string, host: string): Promise<NamespacedPostgres> {
  const root = mkdtempSync(join(tmpdir(), 'ledger-ns-pg-'));
  chmodSync(root, 0o777);
  const dir = join(root, 'data');
  const asPostgres = (cmd: string, args: string[], inNetns = false) =>
    run(
      inNetns ? 'ip' : 'runuser',
      [
        ...(inNetns ? ['netns', 'exec', netns, 'runuser'] : []),
        '-u',
        'postgres',
        '--',
        join(BIN, cmd),
        ...args,
      ],
      { timeout: 120_000 },
    );
  let started = false;
  const url = (database = 'postgres') => `postgres://postgres@${host}:5432/${database}`;
  const server: NamespacedPostgres = {
    url,
    async query<T extends pg.QueryResultRow>(sql: string, database?: string) {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return (await client.query<T>(sql)).rows;
      } finally {
        await client.end();
      }
    },
    async destroy() {
      if (started)
        await asPostgres('pg_ctl', ['-D', dir, 'stop', '-m', 'immediate', '-w']).catch(() => undefined);
      started = false;
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await asPostgres('initdb', ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    appendFileSync(
      join(dir, 'postgresql.conf'),
      [
        `listen_addresses = '${host}'`,
        'port = 5432',
        `unix_socket_directories = '${root}'`,
        'shared_buffers = 16MB',
        'fsync = off',
        '',
      ].join('\n'),
    );
    appendFileSync(join(dir, 'pg_hba.conf'), 'host all all 10.0.0.0/8 trust\n');
    await asPostgres('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-w', '-t', '60', 'start'], true);
    started = true;
  } catch (error) {
    await server.destroy();
    throw error;
  }
  return server;
}
