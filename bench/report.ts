import { existsSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import type { StoreKind } from '../src/config/ledger-config.js';
import type { ScenarioKind } from './claim-scenarios.js';
import type { LoadResult } from './harness.js';

/** How an operation reached the database. */
export type BenchPath = 'baseline' | 'in-process' | 'http';

/** One measured scenario. */
export interface Measurement {
  readonly store: StoreKind;
  readonly kind: ScenarioKind;
  readonly path: BenchPath;
  readonly result: LoadResult;
}

/** Where and how the run happened, for RESULTS.md. */
export interface RunInfo {
  /** ISO 8601 UTC start time. */
  readonly date: string;
  readonly command: string;
  /** Logical CPUs (`nproc`). */
  readonly cpus: number;
  readonly cpuModel: string;
  readonly nodeVersion: string;
  /** `select version()` of each store that ran. */
  readonly databaseVersions: Partial<Record<StoreKind, string>>;
  readonly clients: number;
  /** pg pool size of the ledger and, equally, of the baseline (PostgreSQL). */
  readonly poolSize: number;
  /** Measured operations per scenario, or null when time-boxed. */
  readonly ops: number | null;
  /** Measuring time per scenario, seconds (upper bound when `ops` is set). */
  readonly seconds: number;
  /** Warm-up time of each path before each scenario, seconds. */
  readonly warmupSeconds: number;
  /** Rounds the measuring time is split into, alternating the paths' order. */
  readonly rounds: number;
  /** Seeded, confirmed operations that the duplicate scenarios repeat. */
  readonly dupKeys: number;
  /** Whether the projectors ran in the ledger process during the measurements. */
  readonly projector: boolean;
  /** Wall time of the whole run, seconds. */
  readonly totalSeconds: number;
  /** 1-minute load average just before and just after the run (other work on the machine skews it). */
  readonly loadAverage: readonly [number, number];
}

const KIND_LABEL: Record<ScenarioKind, string> = {
  new: 'new-key claim',
  duplicate: 'duplicate claim',
  cycle: 'claim→step→confirm',
  'one-step': 'one-step job',
};

/** Targets of the in-process claims bench, as ops/s ratios to its baseline. */
export const TARGETS: Partial<Record<ScenarioKind, number>> = { new: 0.8, duplicate: 1.0 };

/**
 * The ratio of `m`'s throughput (ops/s) to the baseline's of the same store and kind; null for
 * the baseline itself or when the baseline is missing or measured nothing.
 */
export function ratioToBaseline(m: Measurement, all: readonly Measurement[]): number | null {
  if (m.path === 'baseline') return null;
  const base = all.find((b) => b.store === m.store && b.kind === m.kind && b.path === 'baseline');
  return base && base.result.opsPerSecond > 0 ? m.result.opsPerSecond / base.result.opsPerSecond : null;
}

function rows(all: readonly Measurement[]): string[][] {
  return all.map((m) => {
    const ratio = ratioToBaseline(m, all);
    const r = m.result;
    return [
      m.store,
      KIND_LABEL[m.kind],
      m.path,
      String(r.ops),
      String(r.errors),
      r.opsPerSecond.toFixed(0),
      r.p50Ms.toFixed(2),
      r.p99Ms.toFixed(2),
      ratio === null ? '—' : `${ratio.toFixed(2)}×`,
      perOp(r.processCpuMs, r.ops),
      r.meteredCpuMs['loadgen'] == null ? '—' : perOp(r.meteredCpuMs['loadgen'], r.ops),
      r.meteredCpuMs['pg'] == null ? '—' : perOp(r.meteredCpuMs['pg'], r.ops),
    ];
  });
}

function perOp(cpuMs: number, ops: number): string {
  return ops > 0 ? ((cpuMs * 1000) / ops).toFixed(0) : '—';
}

const HEADER = [
  'store',
  'scenario',
  'path',
  'ops',
  'errors',
  'ops/s',
  'p50 ms',
  'p99 ms',
  '× baseline',
  'node cpu µs/op',
  'load-gen cpu µs/op',
  'pg cpu µs/op',
];

/** The measurements as an aligned plain-text table for the console. */
export function formatTable(all: readonly Measurement[]): string {
  const table = [HEADER, ...rows(all)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return table
    .map((r) => r.map((cell, i) => (i >= 3 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}

/**
 * One line per target and store (in-process path): the ratio, the target and whether it was met;
 * plus a warning line for every scenario that had errors.
 */
export function verdicts(all: readonly Measurement[]): string[] {
  const lines: string[] = [];
  for (const m of all) {
    const target = TARGETS[m.kind];
    if (m.path !== 'in-process' || target === undefined) continue;
    const ratio = ratioToBaseline(m, all);
    if (ratio === null) {
      lines.push(`${m.store}: ${KIND_LABEL[m.kind]} in-process: no baseline measured, target not judged`);
      continue;
    }
    const met = ratio >= target;
    lines.push(
      `${m.store}: ${KIND_LABEL[m.kind]} in-process ${ratio.toFixed(2)}× ` +
        `baseline (target ≥ ${target.toFixed(1)}×): ${met ? 'met' : 'MISSED'}`,
    );
  }
  for (const m of all) {
    if (m.result.errors > 0) {
      lines.push(
        `${m.store} ${KIND_LABEL[m.kind]} ${m.path}: ${m.result.errors} errors, first: ${m.result.firstError}`,
      );
    }
  }
  return lines;
}

/**
 * Per store and ledger path, the one-step job (claim with `startStep`, confirm with
 * `completeStep`; over HTTP through the SDK) against the 3-request cycle of the same path and
 * run, and both against the hand-rolled baseline (its claim + complete). Jobs per second.
 */
export function oneStepLines(all: readonly Measurement[]): string[] {
  const lines: string[] = [];
  for (const one of all.filter((x) => x.kind === 'one-step' && x.path !== 'baseline')) {
    const cycle = all.find((x) => x.store === one.store && x.kind === 'cycle' && x.path === one.path);
    const ratio = (r: number | null) => (r === null ? ': not measured' : ` ${r.toFixed(2)}×`);
    const versus =
      cycle && cycle.result.opsPerSecond > 0
        ? ` ${cycle.result.opsPerSecond.toFixed(0)}/s: ${(one.result.opsPerSecond / cycle.result.opsPerSecond).toFixed(2)}×`
        : ': not measured';
    const base = ratioToBaseline(one, all);
    const cycleBase = cycle ? ratioToBaseline(cycle, all) : null;
    const how = one.path === 'http' ? ' over HTTP (SDK, 2 requests)' : ` ${one.path}`;
    const cycleName = one.path === 'http' ? `${KIND_LABEL.cycle} (3 requests)` : KIND_LABEL.cycle;
    lines.push(
      `${one.store}: one-step job${how} ${one.result.opsPerSecond.toFixed(0)} jobs/s vs ${cycleName}${versus}; ` +
        `vs the baseline${ratio(base)}` +
        (base !== null && cycleBase !== null ? ` (the cycle ${cycleBase.toFixed(2)}×)` : ''),
    );
  }
  return lines;
}

/** A RESULTS.md section (markdown) for one run: settings, machine, command, table, target verdicts. */
export function markdownSection(info: RunInfo, all: readonly Measurement[]): string {
  const dbs = Object.entries(info.databaseVersions).map(([store, v]) => `${store}: ${v}`);
  const sizing =
    (info.ops === null ? `${info.seconds} s` : `${info.ops} ops (≤ ${info.seconds} s)`) +
    ` per scenario and path in ${info.rounds} interleaved rounds`;
  const table = [HEADER, HEADER.map((_, i) => (i >= 3 ? '---:' : '---')), ...rows(all)]
    .map((r) => `| ${r.join(' | ')} |`)
    .join('\n');
  return [
    `## ${info.date}`,
    '',
    `- Command: \`${info.command}\``,
    `- Machine: ${info.cpus} CPUs (\`nproc\`), ${info.cpuModel}; Node ${info.nodeVersion}`,
    ...dbs.map((d) => `- ${d}`),
    `- Load: ${info.clients} concurrent clients, pool ${info.poolSize} (ledger and baseline each), ` +
      `${sizing}, each path warmed up ${info.warmupSeconds} s first; ${info.dupKeys} seeded keys for duplicates; ` +
      `projectors ${info.projector ? 'ON in the ledger process' : 'off'}; whole run ${info.totalSeconds.toFixed(0)} s`,
    `- Load average (1 min) before / after: ${info.loadAverage.map((l) => l.toFixed(2)).join(' / ')}` +
      (busy(info) ? ' — **other processes were busy when the run began**' : ''),
    ...interferenceLines(all, info.cpus).map((l) => `- ${l}`),
    '',
    table,
    '',
    '`× baseline`: ops/s divided by the baseline’s ops/s (same store, same scenario; the baseline of both ' +
      'the cycle and the one-step job is its claim + complete). `node cpu µs/op`: CPU time of the benchmark ' +
      'process per operation — ledger (and, on PGlite, the database itself), plus the load of the baseline ' +
      'and in-process paths, which run in it. `load-gen cpu µs/op`: the separate load-generator process of ' +
      'the HTTP path (undici, one connection per client; the one-step job through the SDK). ' +
      '`pg cpu µs/op`: CPU time of the PostgreSQL backends serving the benchmark database per ' +
      'operation (local server only; WAL writer, checkpointer and autovacuum not included).',
    '',
    ...oneStepLines(all).map((v) => `- ${v}`),
    ...verdicts(all).map((v) => `- ${v}`),
    '',
  ].join('\n');
}

/**
 * Share (0..1) of the machine's CPU capacity (`cpus` × measured wall time) that processes other
 * than the benchmark, its load generator and its database backends used during the measurements
 * of `store`; null
 * when the machine meter is unavailable. PostgreSQL's background workers count as other.
 */
export function otherCpuShare(all: readonly Measurement[], store: StoreKind, cpus: number): number | null {
  let other = 0;
  let capacity = 0;
  for (const m of all.filter((x) => x.store === store)) {
    const machine = m.result.meteredCpuMs['machine'];
    if (machine == null) return null;
    const { pg, loadgen } = m.result.meteredCpuMs;
    other += machine - m.result.processCpuMs - (pg ?? 0) - (loadgen ?? 0);
    capacity += m.result.elapsedMs * cpus;
  }
  return capacity > 0 ? Math.max(0, other) / capacity : null;
}

/** Lines saying how much other work competed for the CPUs per store, flagged above 10 %. */
export function interferenceLines(all: readonly Measurement[], cpus: number): string[] {
  const stores = [...new Set(all.map((m) => m.store))];
  return stores.map((store) => {
    const share = otherCpuShare(all, store, cpus);
    if (share === null) return `${store}: CPU use of other processes unknown (no /proc/stat)`;
    const flag = share > 0.1 ? ' — **other work competed for the CPUs; these figures are skewed**' : '';
    return `${store}: other processes used ${(share * 100).toFixed(1)} % of the ${cpus} CPUs while measuring${flag}`;
  });
}

/** Whether the machine was busy with other work when the run began (load average above half the CPUs). */
export function busy(info: Pick<RunInfo, 'loadAverage' | 'cpus'>): boolean {
  return info.loadAverage[0] > info.cpus / 2;
}

/** Appends `section` to the results file at `path`, creating it with a title when missing. */
export async function appendResults(path: string, section: string): Promise<void> {
  if (!existsSync(path)) {
    await writeFile(
      path,
      '# Claim benchmark results\n\n' +
        'Appended by `npm run bench:claims` (bench/claims.bench.ts); newest last. Ratios are ops/s of a path ' +
        'divided by ops/s of the hand-rolled `idempotency_keys` baseline of the same store and scenario.\n\n',
    );
  }
  await appendFile(path, '\n' + section);
}
