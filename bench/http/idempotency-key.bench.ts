import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { combineResults, runLoad, type CpuMeter, type LoadOp, type LoadResult } from '../harness.js';
import { PostgresCpuMeter } from '../postgres-cpu.js';
import { newKeyOp, replayOp, seedKeys } from './idempotency-key-load.js';
import { startLedgerServer, type LedgerServer } from './ledger-server.js';
import { processCpuMeter, redisCpuMeter, waitUntilIdle } from './process-cpu.js';
import { startServer, type ServerProcess } from './server-process.js';
import { installBaselinePackages } from './bench-servers.js';

/**
 * `npm run bench:idempotency-key`: one NestJS endpoint (bench/http/servers/orders-endpoint.mjs)
 * bare, guarded by @operation-ledger/client/nestjs on the ledger (PostgreSQL, and PGlite), and by
 * @node-idempotency/nestjs on the local Redis — new keys and replays, interleaved rounds, CPU per
 * request of app + ledger + store from /proc, a section appended to bench/RESULTS.md.
 * Flags: --seconds (per round, 8), --rounds (3), --connections (32), --keys (replayed keys,
 * 2000), --no-results (print only).
 */
const SCRIPT = fileURLToPath(new URL('../../../bench/http/servers/orders-endpoint.mjs', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    keys: { type: 'string', default: '2000' },
    'no-results': { type: 'boolean', default: false },
    'pg-url': {
      type: 'string',
      default: process.env['LEDGER_BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const roundMs = Number(flags.seconds) * 1000;
const connections = Number(flags.connections);

interface App {
  readonly id: string;
  readonly server: ServerProcess;
  readonly ledger: LedgerServer | null;
  readonly meters: Record<string, CpuMeter>;
  readonly pool: Pool;
  /** The meter's connection to the ledger's database: closed before the database is dropped. */
  readonly pg: PostgresCpuMeter | null;
  keys: string[];
}
interface Target {
  readonly app: App;
  readonly op: 'new keys' | 'replays';
}

function log(message: string): void {
  process.stderr.write(`[bench:idempotency-key] ${message}\n`);
}

async function startApp(
  id: string,
  env: Record<string, string>,
  ledger: LedgerServer | null,
  workDir: string,
) {
  const server = await startServer({
    name: id,
    script: SCRIPT,
    env,
    readyPath: '/health',
    logFile: join(workDir, `${id}.log`),
    startTimeoutMs: 60_000,
  });
  const meters: Record<string, CpuMeter> = { app: processCpuMeter(server.pid) };
  if (ledger) meters['ledger'] = processCpuMeter(ledger.process.pid);
  let pg: PostgresCpuMeter | null = null;
  if (ledger?.database) {
    const meter = await PostgresCpuMeter.open(ledger.database.connectionString);
    meters['store'] = () => meter.begin();
    pg = meter;
  }
  const redis = env['GUARD'] === 'node-idempotency' ? redisCpuMeter() : null;
  if (redis) meters['store'] = redis;
  const pool = new Pool(server.url, { connections });
  return { id, server, ledger, meters, pool, pg, keys: [] } satisfies App;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const load0 = loadavg()[0]!;
  const workDir = await mkdtemp(join(tmpdir(), 'bench-idempotency-key-'));
  const apps: App[] = [];
  const ledgers: LedgerServer[] = [];
  try {
    const install = await installBaselinePackages();
    if (install) throw new Error(install);
    for (const store of ['postgres', 'pglite'] as const) {
      log(`starting the ledger on ${store}`);
      const ledger = await startLedgerServer({
        name: `ledger-${store}`,
        store,
        projector: true,
        pgAdminUrl: flags['pg-url'],
        workDir,
        workerKeys: 1,
      });
      ledgers.push(ledger);
      const env = { GUARD: 'ledger', LEDGER_URL: ledger.process.url, LEDGER_TOKEN: ledger.workerTokens[0]! };
      apps.push(await startApp(`ours-${store === 'postgres' ? 'pg' : 'pglite'}`, env, ledger, workDir));
    }
    apps.unshift(await startApp('bare', { GUARD: 'none' }, null, workDir));
    apps.push(await startApp('node-idempotency', { GUARD: 'node-idempotency' }, null, workDir));
    for (const app of apps) {
      log(`seeding ${flags.keys} completed keys on ${app.id}`);
      app.keys = await seedKeys(app.pool, Number(flags.keys));
    }
    const targets: Target[] = apps.flatMap((app) => [
      { app, op: 'new keys' as const },
      ...(app.id === 'bare' ? [] : [{ app, op: 'replays' as const }]),
    ]);
    const results = new Map<Target, LoadResult[]>();
    for (let round = 0; round < Number(flags.rounds); round++) {
      const shift = round % targets.length;
      for (const t of [...targets.slice(shift), ...targets.slice(0, shift)]) {
        const op: LoadOp = t.op === 'new keys' ? newKeyOp(t.app.pool) : replayOp(t.app.pool, t.app.keys);
        await runLoad(op, { concurrency: connections, durationMs: round === 0 ? 3000 : 1000 });
        await waitUntilIdle(t.app.server.pid);
        if (t.app.ledger) await waitUntilIdle(t.app.ledger.process.pid);
        const r = await runLoad(op, { concurrency: connections, durationMs: roundMs, meters: t.app.meters });
        results.set(t, [...(results.get(t) ?? []), r]);
        log(`round ${round + 1} ${t.app.id} ${t.op}: ${r.opsPerSecond.toFixed(0)} req/s, ${r.errors} errors`);
      }
    }
    const section = report(targets, results, { t0, load0 });
    if (flags['no-results']) process.stdout.write(`${section}\n`);
    else {
      await appendFile(fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url)), `\n${section}`);
      process.stdout.write(`${section}\nappended to bench/RESULTS.md\n`);
    }
  } finally {
    for (const app of apps) {
      await app.pool.close().catch(() => undefined);
      await app.pg?.close().catch(() => undefined);
      await app.server.stop().catch(() => undefined);
    }
    for (const ledger of ledgers) await ledger.stop().catch(() => undefined);
    await rm(workDir, { recursive: true, force: true });
  }
}

function report(
  targets: readonly Target[],
  results: Map<Target, LoadResult[]>,
  run: { t0: number; load0: number },
) {
  const combined = new Map(targets.map((t) => [t, combineResults(results.get(t) ?? [])]));
  const cpuPerRequest = (r: LoadResult) => {
    const parts = Object.values(r.meteredCpuMs);
    if (parts.some((v) => v === null)) return null;
    return (parts as number[]).reduce((a, b) => a + b, 0) / Math.max(1, r.ops);
  };
  const rows = targets.map((t) => {
    const r = combined.get(t)!;
    const cpu = cpuPerRequest(r);
    const split = Object.entries(r.meteredCpuMs)
      .map(([k, v]) => `${k} ${v === null ? '?' : ((v / Math.max(1, r.ops)) * 1000).toFixed(0)}`)
      .join(' + ');
    return `| ${t.app.id} | ${t.op} | ${r.opsPerSecond.toFixed(0)} | ${r.p50Ms.toFixed(1)} | ${r.p99Ms.toFixed(1)} | ${cpu === null ? '?' : (cpu * 1000).toFixed(0)} (${split}) | ${r.errors} |`;
  });
  const rate = (id: string, op: Target['op']) =>
    combined.get(targets.find((t) => t.app.id === id && t.op === op)!)?.opsPerSecond ?? NaN;
  const goals = (['ours-pg', 'ours-pglite'] as const).flatMap((id) =>
    (['replays', 'new keys'] as const).map((op) => {
      const ratio = rate(id, op) / rate('node-idempotency', op);
      const goal = op === 'replays' ? 1.0 : 0.7;
      return `| ${id} | ${op} | ${ratio.toFixed(2)}× | ≥ ${goal.toFixed(1)}× | ${ratio >= goal ? 'met' : '**missed**'} |`;
    }),
  );
  return [
    `## ${new Date().toISOString().slice(0, 10)} — Idempotency-Key adapters beside @node-idempotency (npm run bench:idempotency-key)`,
    '',
    `One NestJS 12 endpoint on Fastify (bench/http/servers/orders-endpoint.mjs), each variant its own process: bare, our`,
    `interceptor on the ledger (PostgreSQL 127.0.0.1, and embedded PGlite; ledger as its own process, projector on), and`,
    `@node-idempotency/nestjs on the local Redis. ${connections} connections (undici Pool, closed loop, in the bench's`,
    `own process), ${flags.rounds} interleaved rounds × ${flags.seconds} s after a warm-up; replays cycle over`,
    `${flags.keys} keys completed through the same app. ${availableParallelism()} CPUs (${cpus()[0]?.model ?? '?'}),`,
    `**shared with other work** (load average ${run.load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}); run took ${((Date.now() - run.t0) / 1000).toFixed(0)} s.`,
    '',
    '| app | requests | req/s | p50 ms | p99 ms | CPU µs/request (app + ledger + store) | errors |',
    '|---|---|---:|---:|---:|---|---:|',
    ...rows,
    '',
    '| ours | requests | ratio to @node-idempotency (req/s) | goal | |',
    '|---|---|---:|---:|---|',
    ...goals,
    '',
  ].join('\n');
}

await main();
