import { mkdtemp, readFile, rm, appendFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { combineResults, type CpuMeter, type LoadResult } from '../harness.js';
import { machineCpuMeter } from '../machine-cpu.js';
import { maxConnections, postgresVersion } from '../postgres-bench-db.js';
import { benchPoolSize } from './pool-budget.js';
import { waitUntilIdle } from './process-cpu.js';
import { installBaselinePackages, startBenchServer, type BenchServer } from './bench-servers.js';
import { HTTP_BENCH_USAGE, parseHttpBenchOptions, type HttpBenchOptions } from './http-bench-options.js';
import { resultsSection, resultsTable, type TargetOutcome } from './http-report.js';
import { LoadClient } from './load-client.js';
import { isOneStep, targetById, withBuildA, type ServerId, type Target } from './targets.js';

/**
 * `npm run bench:http`: the ledger started as users start it, the baselines beside it,
 * a separate load-generator process, interleaved rounds, CPU per operation from /proc, and a
 * section appended to bench/RESULTS.md. Flags: bench/http/http-bench-options.ts.
 */
async function main(): Promise<void> {
  const parsed = parseHttpBenchOptions(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(`${HTTP_BENCH_USAGE}\n`);
    return;
  }
  const opts = parsed;
  const t0 = performance.now();
  const load0 = loadavg()[0]!;
  const picked = opts.targets.map(targetById);
  const targets = opts.ledgerA ? withBuildA(picked) : picked;
  const workDir = await mkdtemp(join(tmpdir(), 'ledger-bench-http-'));
  const servers = new Map<ServerId, BenchServer>();
  const skipped = new Map<string, string>();
  const client = LoadClient.start();
  let stopping = false;
  process.once('SIGINT', () => (stopping = true));
  let failed = true;
  try {
    await startServers(targets, opts, workDir, servers, skipped);
    await prepare(client, targets, opts, servers, skipped);
    const runnable = targets.filter((t) => !skipped.has(t.id));
    const results = new Map<string, LoadResult[]>();
    for (let round = 0; round < opts.rounds && !stopping; round++) {
      for (const t of rotate(runnable, round, opts.rounds)) {
        if (stopping) break;
        const warmupMs = round === 0 ? 3 * opts.warmupMs : opts.warmupMs;
        const result = await measureRound(client, t, servers.get(t.server)!, opts, warmupMs);
        results.set(t.id, [...(results.get(t.id) ?? []), result]);
        log(
          `round ${round + 1}/${opts.rounds} ${t.id}: ${result.opsPerSecond.toFixed(0)} ops/s, ${result.errors} errors` +
            (result.firstError ? ` (first: ${result.firstError})` : ''),
        );
      }
    }
    const outcomes: TargetOutcome[] = targets.map((t) => {
      const rounds = results.get(t.id);
      return {
        target: t,
        result: rounds ? combineResults(rounds) : null,
        rounds: rounds ?? [],
        skipped: skipped.get(t.id) ?? (rounds ? null : 'n/a: interrupted'),
        store: servers.get(t.server)?.store ?? 'none',
      };
    });
    process.stdout.write(`\n${resultsTable(outcomes)}\n`);
    const section = resultsSection(
      {
        date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        command: commandLine(process.argv.slice(2)),
        machine: `${availableParallelism()} CPUs (\`nproc\`), ${cpus()[0]?.model ?? 'unknown CPU'}, shared with other work`,
        versions: await versions(opts),
        load:
          `${opts.connections} connections (undici Pool, closed loop, separate process), ${opts.rounds} interleaved ` +
          `rounds × ${opts.roundMs / 1000} s per target after ${opts.warmupMs / 1000} s warm-up each (3× in round 1), ` +
          `${opts.dupKeys} completed keys for duplicates; every server its own process and fresh database`,
        totalSeconds: (performance.now() - t0) / 1000,
        loadAverage: [load0, loadavg()[0]!],
        otherCpuPercent: otherCpuPercent(outcomes),
      },
      outcomes,
    );
    if (opts.results && !stopping) {
      await appendFile(opts.results, `\n${section}`);
      log(`appended to ${opts.results}`);
    } else {
      process.stdout.write(`\n${section}\n`);
    }
    failed = false;
  } finally {
    await client.stop();
    for (const server of servers.values())
      await server.stop().catch((err: unknown) => log(`stop ${server.id}: ${String(err)}`));
    if (failed || opts.keepLogs) log(`server logs kept in ${workDir}`);
    else await rm(workDir, { recursive: true, force: true });
  }
}

function log(message: string): void {
  process.stderr.write(`[bench:http] ${message}\n`);
}

/** Starts the servers of `targets`; a baseline that cannot start marks its targets n/a. */
async function startServers(
  targets: readonly Target[],
  opts: HttpBenchOptions,
  workDir: string,
  servers: Map<ServerId, BenchServer>,
  skipped: Map<string, string>,
): Promise<void> {
  const needed = [...new Set(targets.map((t) => t.server))];
  const ledgerPg = needed.filter((id) => id.startsWith('ledger') && !id.startsWith('ledger-pglite')).length;
  const handRolled = needed.filter((id) => id.startsWith('hand-rolled')).length;
  const poolSize = benchPoolSize(await maxConnections(opts.pgUrl), ledgerPg, handRolled);
  log(`pool of every PostgreSQL server: ${poolSize} connections (${ledgerPg + handRolled} servers)`);
  const ni = (id: ServerId) => id === 'node-idempotency' || id === 'node-idempotency-express';
  const install = needed.some(ni) ? await installBaselinePackages() : null;
  for (const id of needed) {
    const skip = (reason: string) =>
      targets.filter((t) => t.server === id).forEach((t) => skipped.set(t.id, reason));
    if (ni(id) && install) {
      skip(install);
      continue;
    }
    try {
      log(`starting ${id}`);
      const settings = {
        pgAdminUrl: opts.pgUrl,
        redisUrl: opts.redisUrl,
        workDir,
        workerKeys: opts.connections,
        ledgerA: opts.ledgerA,
        poolSize,
      };
      servers.set(id, await startBenchServer(id, settings));
    } catch (err) {
      if (id.startsWith('ledger')) throw err;
      skip(`n/a: ${id} did not start (${String(err).split('\n')[0]})`);
    }
  }
}

/** Seeds the duplicate keys and probes the one-step job. */
async function prepare(
  client: LoadClient,
  targets: readonly Target[],
  opts: HttpBenchOptions,
  servers: ReadonlyMap<ServerId, BenchServer>,
  skipped: Map<string, string>,
): Promise<void> {
  const addresses = Object.fromEntries([...servers].map(([id, s]) => [id, { url: s.url, tokens: s.tokens }]));
  await client.send({
    cmd: 'setup',
    servers: addresses,
    connections: opts.connections,
    dupKeys: opts.dupKeys,
  });
  for (const t of targets) {
    if (skipped.has(t.id)) continue;
    // The SDK falls back to 3-4 requests on a ledger without the shortcuts: not the row's job.
    if (isOneStep(t.op)) {
      const reason = (await client.send({ cmd: 'probe-one-step', server: t.server })) as string | null;
      if (reason) skipped.set(t.id, reason);
    }
    if (['ledger-duplicate', 'hand-rolled-duplicate', 'ni-replay'].includes(t.op)) {
      log(`seeding ${opts.dupKeys} completed keys on ${t.server}`);
      await client.send({ cmd: 'seed', server: t.server }, 600_000);
    }
  }
}

/** Round `round`'s order: each round starts at another part of the list, so no target is always first. */
function rotate<T>(items: readonly T[], round: number, rounds: number): T[] {
  const shift = (round * Math.ceil(items.length / rounds)) % Math.max(1, items.length);
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/**
 * One round of `target`: fresh connections, an unmeasured warm-up, then the measured load. CPU
 * is metered from when the server is idle after the warm-up until it is idle after the load
 * (each wait at most 5 s), so a projector's catch-up counts; throughput is the load's alone.
 */
async function measureRound(
  client: LoadClient,
  target: Target,
  server: BenchServer,
  opts: HttpBenchOptions,
  warmupMs: number,
): Promise<LoadResult> {
  await client.send({ cmd: 'open', target: target.id });
  try {
    await client.load(warmupMs, opts.maxOpsPerRound);
    await waitUntilIdle(server.pid);
    const meters: [string, CpuMeter][] = [
      ['server', server.serverCpu],
      ['machine', machineCpuMeter],
      ...(server.storeCpu ? [['store', server.storeCpu] as [string, CpuMeter]] : []),
    ];
    const ends = await Promise.all(meters.map(([, meter]) => meter()));
    const meteredFrom = performance.now();
    const result = await client.load(opts.roundMs, opts.maxOpsPerRound);
    // Work the round left behind (a projector catching up) is the round's cost: meter it too.
    await waitUntilIdle(server.pid);
    const cpu = await Promise.all(ends.map((end) => end()));
    const metered = Object.fromEntries(meters.map(([name], i) => [name, cpu[i]!]));
    // Not CPU but the metered wall time (combineResults adds it up like the CPU times).
    metered['meteredWall'] = performance.now() - meteredFrom;
    return { ...result, meteredCpuMs: metered };
  } finally {
    await client.send({ cmd: 'close' });
  }
}

/** Share of all CPUs used by processes other than the measured server, store and load generator, %. */
function otherCpuPercent(outcomes: readonly TargetOutcome[]): number | null {
  let other = 0;
  let capacity = 0;
  for (const { result: r } of outcomes) {
    const machine = r?.meteredCpuMs['machine'];
    if (!r || machine === null || machine === undefined) continue;
    other += machine - (r.meteredCpuMs['server'] ?? 0) - (r.meteredCpuMs['store'] ?? 0) - r.processCpuMs;
    capacity += (r.meteredCpuMs['meteredWall'] ?? r.elapsedMs) * availableParallelism();
  }
  return capacity > 0 ? Math.max(0, (100 * other) / capacity) : null;
}

async function versions(opts: HttpBenchOptions): Promise<string> {
  const version = async (path: string) => {
    try {
      return (JSON.parse(await readFile(path, 'utf8')) as { version: string }).version;
    } catch {
      return '?';
    }
  };
  const nest = await version('node_modules/@nestjs/core/package.json');
  const ni = await version('bench/http/baselines/node_modules/@node-idempotency/nestjs/package.json');
  const pg = (await postgresVersion(opts.pgUrl).catch(() => 'PostgreSQL ?')).split(' on ')[0];
  return `Node ${process.version}, Nest ${nest}, ${pg} on 127.0.0.1, @node-idempotency/nestjs ${ni} on local Redis`;
}

/** How this run was started, e.g. `npm run bench:http -- --seconds 2`. */
function commandLine(argv: readonly string[]): string {
  const args = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  const script = process.env['npm_lifecycle_event'];
  if (script) return `npm run ${script}${args ? ` -- ${args}` : ''}`;
  return `node dist/bench/http/http.bench.js${args ? ` ${args}` : ''}`;
}

await main();
