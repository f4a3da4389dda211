import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../process/start-command.js';

const run = promisify(execFile);
const BIN = process.env['LEDGER_FAULT_PG_BIN'] ?? '/usr/lib/postgresql/15/bin';

/** One throw-away PostgreSQL server of a {@link ReplicaPair}. */
export interface PgNode {
  readonly name: 'primary' | 'standby';
  readonly dir: string;
  readonly port: number;
  /** URL of `database` on this node as user postgres (trust). */
  url(database?: string): string;
  query<T extends pg.QueryResultRow>(sql: string, database?: string): Promise<T[]>;
}

/**
 * A primary and a SYNCHRONOUS streaming standby built from the installed PostgreSQL binaries
 * (`initdb`, `pg_basebackup -R`, `pg_ctl`) in a temporary directory, on two free loopback ports,
 * run as the `postgres` OS user (initdb refuses root). `synchronous_standby_names = '*'` with
 * `synchronous_commit = on`: a commit is acknowledged only once the standby flushed its WAL, so
 * a promoted standby holds every acknowledged transaction. The machine's own cluster is untouched.
 */
export interface ReplicaPair {
  readonly primary: PgNode;
  readonly standby: PgNode;
  /** Kills the primary without a shutdown checkpoint (`pg_ctl stop -m immediate`). */
  crashPrimary(): Promise<void>;
  /**
   * `pg_ctl promote -w`: the standby leaves recovery and accepts writes. Then, as a failover
   * manager does when no standby is left (docs/production-ha.md), `synchronous_standby_names` is
   * cleared: inherited from the primary, it would make every commit wait for a standby that does
   * not exist (the ledger would answer 503 after each statement timeout).
   */
  promoteStandby(): Promise<void>;
  /**
   * SIGSTOPs the primary's postmaster and every process it forked (backends, WAL sender, …): the
   * server freezes as on a stalled VM or disk — the kernel still accepts TCP connections on its
   * port, nothing answers. {@link thawPrimary} sends SIGCONT; {@link destroy} does too.
   */
  freezePrimary(): void;
  thawPrimary(): void;
  /** Stops both servers (whatever state they are in) and deletes the directory. Idempotent. */
  destroy(): Promise<void>;
}

const asPostgres = (cmd: string, args: string[], timeout = 120_000) =>
  process.getuid?.() === 0
    ? run('runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args], { timeout })
    : run(join(BIN, cmd), args, { timeout });

function node(name: PgNode['name'], dir: string, port: number): PgNode {
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    name,
    dir,
    port,
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
  };
}

const settings = (port: number, dir: string) =>
  [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'shared_buffers = 16MB',
    'max_connections = 60',
    'wal_level = replica',
    'max_wal_senders = 4',
    'hot_standby = on',
    "synchronous_standby_names = '*'",
    'synchronous_commit = on',
    '',
  ].join('\n');

/** The postmaster of `n` (first line of postmaster.pid) and its children, from /proc; [] when stopped. */
function serverProcesses(n: PgNode): number[] {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(n.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return [];
  }
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so split after ')'.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

function signalServer(n: PgNode, signal: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of serverProcesses(n)) {
    try {
      process.kill(pid, signal);
    } catch {
      /* exited meanwhile */
    }
  }
}

/** Builds and starts the pair; waits until the standby streams synchronously. */
export async function startReplicaPair(): Promise<ReplicaPair> {
  const root = mkdtempSync(join(tmpdir(), 'ledger-ha-'));
  chmodSync(root, 0o777);
  const [p1, p2] = [await freePort(), await freePort()];
  const primary = node('primary', join(root, 'primary'), p1);
  const standby = node('standby', join(root, 'standby'), p2);
  const started: PgNode[] = [];
  const ctl = (n: PgNode, ...args: string[]) =>
    asPostgres('pg_ctl', ['-D', n.dir, '-l', `${n.dir}.log`, '-w', '-t', '60', ...args]);
  const pair: ReplicaPair = {
    primary,
    standby,
    crashPrimary: async () => {
      await ctl(primary, 'stop', '-m', 'immediate');
    },
    promoteStandby: async () => {
      await ctl(standby, 'promote');
      await standby.query("alter system set synchronous_standby_names = ''");
      await standby.query('select pg_reload_conf()');
    },
    freezePrimary: () => signalServer(primary, 'SIGSTOP'),
    thawPrimary: () => signalServer(primary, 'SIGCONT'),
    destroy: async () => {
      signalServer(primary, 'SIGCONT');
      for (const n of started.splice(0)) await ctl(n, 'stop', '-m', 'immediate').catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await asPostgres('initdb', ['-D', primary.dir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    appendFileSync(join(primary.dir, 'postgresql.conf'), settings(p1, root));
    await ctl(primary, 'start');
    started.push(primary);
    await asPostgres('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(p1),
      '-U',
      'postgres',
      '-D',
      standby.dir,
      '-R',
      '-X',
      'stream',
    ]);
    appendFileSync(join(standby.dir, 'postgresql.conf'), settings(p2, root));
    await ctl(standby, 'start');
    started.push(standby);
    const deadline = Date.now() + 60_000;
    while (
      (
        await primary.query<{ n: number }>(
          "select count(*)::int n from pg_stat_replication where sync_state = 'sync'",
        )
      )[0]!.n < 1
    ) {
      if (Date.now() > deadline) throw new Error('the standby did not become synchronous within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (error) {
    await pair.destroy();
    throw error;
  }
  return pair;
}
