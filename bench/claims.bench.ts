/**
 * Claim benchmark (`npm run bench:claims [-- flags]`, flags in bench-options.ts): on one
 * PostgreSQL server (a fresh database per run) and on in-memory PGlite, at N concurrent clients,
 * compares the hand-rolled `idempotency_keys` baseline with the ledger's claim handler in-process
 * and over HTTP from a separate load-generator process (bench/http-path.ts) — new keys, duplicate
 * keys, full claim → step → confirm cycles (3 requests) and the one-step job with the round-trip
 * shortcuts (2 requests; over HTTP through the SDK's `runOnce` with `firstStep`) — prints ops/s,
 * p50/p99 latency, CPU per operation and the ratio to the baseline, and appends the figures to
 * bench/RESULTS.md.
 */
import 'reflect-metadata';
import { availableParallelism, cpus, loadavg } from 'node:os';
import type { StoreKind } from '../src/config/ledger-config.js';
import { createAppApiKey } from '../src/auth/create-app-api-key.js';
import { commandLine, parseBenchOptions, USAGE, type BenchOptions } from './bench-options.js';
import { openBenchStore, type BenchStore } from './bench-store.js';
import {
  baselineOps,
  ledgerOps,
  seedDuplicates,
  seedLedgerKeys,
  type ScenarioKind,
  type ScenarioOps,
} from './claim-scenarios.js';
import { combineResults, runLoad, type LoadOptions, type LoadResult } from './harness.js';
import { HttpPath } from './http-path.js';
import { inProcessDriver } from './ledger-in-process.js';
import { listenForLoad } from './ledger-over-http.js';
import { machineCpuMeter } from './machine-cpu.js';
import {
  appendResults,
  formatTable,
  interferenceLines,
  markdownSection,
  oneStepLines,
  verdicts,
  type BenchPath,
  type Measurement,
  type RunInfo,
} from './report.js';
import { Workload } from './workload.js';

const log = (line: string) => process.stderr.write(line + '\n');

/** Runs one scenario on one path under `load` and measures it. */
type PathRunner = (scenario: ScenarioKind, load: LoadOptions) => Promise<LoadResult>;

const locally =
  (ops: ScenarioOps): PathRunner =>
  (scenario, load) =>
    runLoad(ops[scenario], load);

async function measure(store: BenchStore, opts: BenchOptions, httpPath: HttpPath): Promise<Measurement[]> {
  const { kind } = store;
  const workload = new Workload();
  const inProcess = inProcessDriver(store.app, store.config);
  const key = await createAppApiKey(store.app, { tenant: 'bench-gmbh', roles: ['worker'], name: 'bench' });
  const duplicates = opts.scenarios.includes('duplicate');
  if (duplicates) {
    log(`[${kind}] seeding ${opts.dupKeys} confirmed operations for the duplicate scenarios…`);
    await seedDuplicates(inProcess, store.baseline, workload, opts.dupKeys, opts.clients);
  }
  if (opts.paths.includes('http')) {
    const url = await listenForLoad(store.app);
    const family = await httpPath.attach(kind, url, key.token, {
      clients: opts.clients,
      dupKeys: opts.dupKeys,
      workload,
    });
    // The HTTP path repeats keys of its own family (the load generator shares the run tag).
    if (duplicates) await seedLedgerKeys(inProcess, workload, family, opts.dupKeys, opts.clients);
  }
  const paths: Record<BenchPath, PathRunner> = {
    baseline: locally(baselineOps(store.baseline, workload, opts.dupKeys)),
    'in-process': locally(ledgerOps(inProcess, workload, 'inproc', opts.dupKeys)),
    http: (scenario, load) => httpPath.run(scenario, load),
  };
  const perRound = {
    concurrency: opts.clients,
    meters: {
      machine: machineCpuMeter,
      ...(store.cpuMeter ? { pg: () => store.cpuMeter!.begin() } : {}),
    },
    ...(opts.ops === null ? {} : { ops: Math.ceil(opts.ops / opts.rounds) }),
    ...(Number.isFinite(opts.seconds) ? { durationMs: (opts.seconds * 1000) / opts.rounds } : {}),
  };
  const measurements: Measurement[] = [];
  for (const scenario of opts.scenarios) {
    for (const path of opts.paths) {
      await paths[path](scenario, { concurrency: opts.clients, durationMs: opts.warmupSeconds * 1000 });
    }
    // Rounds alternate the order of the paths, so slow drift (checkpoints, autovacuum, other
    // work on the machine) hits the baseline and the ledger alike.
    const parts = new Map<BenchPath, LoadResult[]>(opts.paths.map((p) => [p, []]));
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? opts.paths : [...opts.paths].reverse();
      for (const path of order) parts.get(path)!.push(await paths[path](scenario, perRound));
    }
    for (const path of opts.paths) {
      const result = combineResults(parts.get(path)!);
      log(
        `[${kind}] ${scenario.padEnd(9)} ${path.padEnd(10)} ${result.opsPerSecond.toFixed(0).padStart(6)} ops/s` +
          `  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms` +
          (result.errors ? `  ${result.errors} errors (${result.firstError})` : ''),
      );
      measurements.push({ store: kind, kind: scenario, path, result });
    }
  }
  return measurements;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const opts = parseBenchOptions(argv);
  const started = Date.now();
  const loadBefore = loadavg()[0]!;
  if (loadBefore > availableParallelism() / 2) {
    log(
      `warning: load average ${loadBefore.toFixed(2)}: other processes are busy, the figures will be skewed`,
    );
  }
  const all: Measurement[] = [];
  const databaseVersions: Partial<Record<StoreKind, string>> = {};
  const httpPath = HttpPath.start();
  try {
    for (const kind of opts.stores) {
      log(`[${kind}] starting the ledger and the baseline…`);
      const store = await openBenchStore(kind, opts.pgUrl, opts.poolSize, opts.projector);
      databaseVersions[kind] = store.description;
      try {
        all.push(...(await measure(store, opts, httpPath)));
      } finally {
        await store.close();
      }
    }
  } finally {
    await httpPath.stop();
  }
  const info: RunInfo = {
    date: new Date(started).toISOString().replace(/\.\d+Z$/, 'Z'),
    command: commandLine(argv),
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
    nodeVersion: process.version,
    databaseVersions,
    clients: opts.clients,
    poolSize: opts.poolSize,
    ops: opts.ops,
    seconds: opts.seconds,
    warmupSeconds: opts.warmupSeconds,
    rounds: opts.rounds,
    dupKeys: opts.dupKeys,
    projector: opts.projector,
    totalSeconds: (Date.now() - started) / 1000,
    loadAverage: [loadBefore, loadavg()[0]!],
  };
  console.log(`\nClaim benchmark, ${opts.clients} clients (${info.command})\n`);
  console.log(formatTable(all));
  console.log(
    '\n' + [...oneStepLines(all), ...verdicts(all), ...interferenceLines(all, info.cpus)].join('\n'),
  );
  if (opts.results) {
    await appendResults(opts.results, markdownSection(info, all));
    console.log(`\nAppended to ${opts.results}`);
  }
  if (all.some((m) => m.result.errors > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
