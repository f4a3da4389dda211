import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CpuMeter } from '../harness.js';
import { PostgresCpuMeter } from '../postgres-cpu.js';
import { createBenchDatabase, type BenchDatabase } from '../postgres-bench-db.js';
import { startLedgerServer } from './ledger-server.js';
import { processCpuMeter, redisCpuMeter } from './process-cpu.js';
import { startServer, type ServerProcess } from './server-process.js';
import type { TargetOutcome } from './http-report.js';
import { BUILD_A_SUFFIX, type BaselineServerId, type ServerId } from './targets.js';

/** One running server of the benchmark and its CPU meters. */
export interface BenchServer {
  readonly id: ServerId;
  readonly url: string;
  readonly tokens: readonly string[];
  /** CPU of the server process. */
  readonly serverCpu: CpuMeter;
  /** CPU of its store outside the process (PostgreSQL backends of its database, Redis), if any. */
  readonly storeCpu: CpuMeter | null;
  readonly store: TargetOutcome['store'];
  readonly pid: number;
  stop(): Promise<void>;
}

const BASELINES_DIR = fileURLToPath(new URL('../../../bench/http/baselines/', import.meta.url));
const SERVERS = fileURLToPath(new URL('./servers/', import.meta.url));

/**
 * Installs the bench-only packages (bench/http/baselines/package.json: @node-idempotency/nestjs
 * and its Redis storage) with `npm install --legacy-peer-deps` when they are missing: they
 * declare Nest ^9/^10 peers, and the root's Nest 12 is what they should run against. Resolves to
 * null when installed, else to the reason (the rows then say why they could not run).
 */
export async function installBaselinePackages(): Promise<string | null> {
  if (existsSync(join(BASELINES_DIR, 'node_modules/@node-idempotency/nestjs/package.json'))) return null;
  try {
    await promisify(execFile)('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund'], {
      cwd: BASELINES_DIR,
      timeout: 300_000,
    });
    return null;
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n').slice(0, 3).join(' ') : String(err);
    return `n/a: npm install --legacy-peer-deps in bench/http/baselines failed (${message})`;
  }
}

async function withPostgresMeter(
  url: string,
  database: BenchDatabase | null,
): Promise<{ meter: CpuMeter; close: () => Promise<void> }> {
  const pg = await PostgresCpuMeter.open(database ? database.connectionString : url);
  return { meter: () => pg.begin(), close: () => pg.close() };
}

/** Settings shared by every server. */
export interface ServerSettings {
  readonly pgAdminUrl: string;
  readonly redisUrl: string;
  readonly workDir: string;
  /** Ledger worker keys (one per load-generator connection). */
  readonly workerKeys: number;
  /** Entry point of the `--ledger-a` build (servers `<ledger>.a`), or null. */
  readonly ledgerA: string | null;
  /** Connection pool of every PostgreSQL server of the run (bench/http/pool-budget.ts). */
  readonly poolSize: number;
}

/**
 * Starts server `id`: the ledger as users run it (bench/http/ledger-server.ts) or one baseline
 * (bench/http/servers/). PostgreSQL servers get a fresh database, dropped by `stop`.
 * @throws Error when it does not start (the message says why).
 */
export async function startBenchServer(id: ServerId, s: ServerSettings): Promise<BenchServer> {
  if (id.startsWith('ledger')) {
    const buildA = id.endsWith(BUILD_A_SUFFIX);
    if (buildA && !s.ledgerA) throw new Error(`server ${id} needs --ledger-a`);
    const base = buildA ? id.slice(0, -BUILD_A_SUFFIX.length) : id;
    const ledger = await startLedgerServer({
      name: id,
      store: base === 'ledger-pglite' ? 'pglite' : 'postgres',
      projector: base !== 'ledger-pg-projector-off',
      ...(buildA ? { main: s.ledgerA! } : {}),
      pgAdminUrl: s.pgAdminUrl,
      workDir: s.workDir,
      workerKeys: s.workerKeys,
      env: { LEDGER_POOL_SIZE: String(s.poolSize) },
    });
    const pg = ledger.database ? await withPostgresMeter(s.pgAdminUrl, ledger.database) : null;
    return {
      id,
      url: ledger.process.url,
      tokens: ledger.workerTokens,
      pid: ledger.process.pid,
      serverCpu: processCpuMeter(ledger.process.pid),
      storeCpu: pg?.meter ?? null,
      store: pg ? 'postgres' : 'in-process',
      stop: async () => {
        await pg?.close();
        await ledger.stop();
      },
    };
  }
  const handRolled = id === 'hand-rolled' || id === 'hand-rolled-express';
  const idempotency = id === 'node-idempotency' || id === 'node-idempotency-express';
  const database = handRolled ? await createBenchDatabase(s.pgAdminUrl) : null;
  const env: Record<string, string> = { BASELINE_PLATFORM: id.endsWith('-express') ? 'express' : 'fastify' };
  if (database)
    Object.assign(env, { DATABASE_URL: database.connectionString, BASELINE_POOL_SIZE: String(s.poolSize) });
  if (idempotency) env['REDIS_URL'] = s.redisUrl;
  let server: ServerProcess;
  try {
    const script = {
      bare: 'bare-nest.js',
      'bare-fastify': 'bare-nest-fastify.js',
      'hand-rolled': 'hand-rolled.js',
      'hand-rolled-express': 'hand-rolled.js',
      'node-idempotency': 'node-idempotency.js',
      'node-idempotency-express': 'node-idempotency.js',
    }[id as BaselineServerId];
    server = await startServer({
      name: id,
      script: join(SERVERS, script),
      env,
      readyPath: '/health',
      logFile: join(s.workDir, `${id}.log`),
      startTimeoutMs: 30_000,
    });
  } catch (err) {
    await database?.drop();
    throw err;
  }
  const pg = database ? await withPostgresMeter(s.pgAdminUrl, database) : null;
  const redis = idempotency ? redisCpuMeter() : null;
  return {
    id,
    url: server.url,
    tokens: [],
    pid: server.pid,
    serverCpu: processCpuMeter(server.pid),
    storeCpu: pg?.meter ?? redis,
    store: pg ? 'postgres' : redis ? 'redis' : 'none',
    stop: async () => {
      await pg?.close();
      await server.stop();
      await database?.drop();
    },
  };
}
