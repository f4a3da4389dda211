import { markdownTable } from 'markdown-table';
import type { LoadResult } from '../harness.js';
import { isOneStep, type Target } from './targets.js';

/** What one target gave over all its rounds, or why it did not run. */
export interface TargetOutcome {
  readonly target: Target;
  /** All rounds combined (bench/harness.ts `combineResults`); null when the target did not run. */
  readonly result: LoadResult | null;
  /** Each round's own result, in round order (ratios are taken round by round); empty when it did not run. */
  readonly rounds: readonly LoadResult[];
  /** Why it did not run, e.g. `n/a: server lacks startStep`; null when it ran. */
  readonly skipped: string | null;
  /** What the store CPU column measured: PostgreSQL backends, Redis, or in the server process. */
  readonly store: 'postgres' | 'redis' | 'in-process' | 'none';
}

/** Where and how the run happened. */
export interface HttpRunInfo {
  readonly date: string;
  readonly command: string;
  readonly machine: string;
  readonly versions: string;
  readonly load: string;
  readonly totalSeconds: number;
  readonly loadAverage: readonly [number, number];
  /** Share of all CPUs that processes other than the measured ones used while measuring, %. */
  readonly otherCpuPercent: number | null;
}

/** Which baselines a ledger target is compared with (ids of the same run). */
function baselinesOf(t: Target): { hr: string | null; ni: string | null } {
  if (t.op === 'ledger-new') return { hr: 'hr-new', ni: 'ni-new' };
  if (t.op === 'ledger-duplicate') return { hr: 'hr-dup', ni: 'ni-replay' };
  if (t.op === 'ledger-cycle' || isOneStep(t.op)) return { hr: 'hr-cycle', ni: null };
  return { hr: null, ni: null };
}

/** The median of `values` (mean of the middle two for an even count); null when empty. */
function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The median over rounds of `of(target's round i) / of(base's round i)`: a target and its
 * baseline measured in the same round met the same machine, so a busy minute skews both alike.
 * Null when either did not run or a value is unknown.
 */
function perRoundRatio(
  outcomes: readonly TargetOutcome[],
  id: string,
  baseId: string | null,
  of: (o: TargetOutcome, round: LoadResult) => number | null,
): number | null {
  const target = outcomes.find((o) => o.target.id === id);
  const base = outcomes.find((o) => o.target.id === baseId);
  if (!target || !base) return null;
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(target.rounds.length, base.rounds.length); i++) {
    const value = of(target, target.rounds[i]!);
    const baseline = of(base, base.rounds[i]!);
    if (value === null || baseline === null || value <= 0 || baseline <= 0) return null;
    ratios.push(value / baseline);
  }
  return median(ratios);
}

/** ops/s of the target `id` over ops/s of `baseId`, round by round (median); null when either did not run. */
export function ratio(outcomes: readonly TargetOutcome[], id: string, baseId: string | null): number | null {
  return perRoundRatio(outcomes, id, baseId, (_, r) => r.opsPerSecond);
}

/**
 * CPU of the server and its store per operation, µs (what the machine pays for one operation),
 * or null when a part was not measured. Less skewed by other work than ops/s on a shared machine.
 * `result`: one round of `o`, or (default) all its rounds combined.
 */
export function cpuPerOp(o: TargetOutcome | undefined, result = o?.result): number | null {
  const r = result;
  if (!o || !r || r.ops === 0) return null;
  const server = r.meteredCpuMs['server'];
  const store = o.store === 'postgres' || o.store === 'redis' ? r.meteredCpuMs['store'] : 0;
  return server === null || server === undefined || store === null || store === undefined
    ? null
    : ((server + store) * 1000) / r.ops;
}

/**
 * CPU per operation of `baseId` divided by that of `id` (> 1: `id` is cheaper), round by round
 * (median); null when unknown.
 */
export function cpuRatio(
  outcomes: readonly TargetOutcome[],
  id: string,
  baseId: string | null,
): number | null {
  const inverse = perRoundRatio(outcomes, id, baseId, (o, r) => cpuPerOp(o, r));
  return inverse === null ? null : 1 / inverse;
}

const perOp = (ms: number | null | undefined, ops: number) =>
  ms === null || ms === undefined || ops === 0 ? '–' : ((ms * 1000) / ops).toFixed(0);
const times = (r: number | null) => (r === null ? '–' : `${r.toFixed(2)}×`);

/** The results table (markdown). */
export function resultsTable(outcomes: readonly TargetOutcome[]): string {
  const head = [
    'target (same run)',
    'req/op',
    'ops',
    'errors',
    'ops/s',
    'p50 ms',
    'p99 ms',
    'server µs/op',
    'store µs/op',
    'load-gen µs/op',
    '× hand-rolled',
    '× node-idempotency',
    'CPU × hand-rolled',
  ];
  const rows = outcomes.map(({ target: t, result: r, skipped, store }) => {
    if (!r) return [t.label, String(t.requests), skipped ?? 'n/a', '', '', '', '', '', '', '', '', '', ''];
    const base = baselinesOf(t);
    const storeCpu =
      store === 'none' ? '–' : store === 'in-process' ? 'in server' : perOp(r.meteredCpuMs['store'], r.ops);
    return [
      t.label,
      String(t.requests),
      String(r.ops),
      String(r.errors),
      r.opsPerSecond.toFixed(0),
      r.p50Ms.toFixed(2),
      r.p99Ms.toFixed(2),
      perOp(r.meteredCpuMs['server'], r.ops),
      storeCpu,
      perOp(r.processCpuMs, r.ops),
      times(ratio(outcomes, t.id, base.hr)),
      times(ratio(outcomes, t.id, base.ni)),
      times(cpuRatio(outcomes, t.id, base.hr)),
    ];
  });
  return markdownTable([head, ...rows], {
    align: ['l', ...head.slice(1).map(() => 'r')],
  });
}

/** One goal line: met / MISSED (by how much) / not measured. */
function goal(
  what: string,
  value: number | null,
  target: number,
  unit: '×' | '/s' | '%',
  atMost = false,
): string {
  if (value === null) return `- ${what}: not measured in this run`;
  const shown =
    unit === '×' ? `${value.toFixed(2)}×` : unit === '%' ? `${value.toFixed(1)} %` : `${value.toFixed(0)}/s`;
  const goalText = `${atMost ? '≤' : '≥'} ${unit === '×' ? `${target}×` : unit === '%' ? `${target} %` : `${target}/s`}`;
  const met = atMost ? value <= target : value >= target;
  if (met) return `- ${what}: ${shown} (goal ${goalText}): met`;
  const gap =
    unit === '%'
      ? `${(value - target).toFixed(1)} points`
      : `${(100 * (1 - value / target)).toFixed(0)} % short`;
  return `- ${what}: ${shown} (goal ${goalText}): **MISSED** by ${gap}`;
}

/**
 * The performance goals (docs/performance.md "Goals") against this run's figures (markdown list):
 * ratios round by round against the baselines on the ledger's own platform (Nest on Fastify).
 */
export function goalLines(outcomes: readonly TargetOutcome[]): string[] {
  const r = (id: string, base: string) => ratio(outcomes, id, base);
  const c = (id: string, base: string) => cpuRatio(outcomes, id, base);
  const ops = (id: string) => outcomes.find((o) => o.target.id === id)?.result?.opsPerSecond ?? null;
  const skipped = outcomes.find((o) => o.target.id === 'pg-one-step')?.skipped;
  /** Share of the CPU per operation (server + PostgreSQL) that the projector adds, %. */
  const projectorShare = (on: string, off: string) => {
    const ratioOnOff = c(on, off);
    return ratioOnOff === null ? null : 100 * (1 - ratioOnOff);
  };
  const throughputCost = (on: string, off: string) => {
    const x = r(on, off);
    return x === null ? '' : ` (throughput: ${(100 * (1 - x)).toFixed(1)} % fewer ops/s with it on)`;
  };
  return [
    goal('PostgreSQL new-key claim vs hand-rolled, ops/s', r('pg-new', 'hr-new'), 1.0, '×'),
    goal('PostgreSQL new-key claim vs hand-rolled, CPU per operation', c('pg-new', 'hr-new'), 1.0, '×'),
    goal('PostgreSQL duplicate claim vs hand-rolled, ops/s', r('pg-dup', 'hr-dup'), 1.0, '×'),
    goal('PostgreSQL duplicate claim vs hand-rolled, CPU per operation', c('pg-dup', 'hr-dup'), 1.0, '×'),
    skipped
      ? `- one-step job vs hand-rolled claim + complete (goal ≥ 0.8×): **MISSED**, ${skipped}`
      : goal('one-step job vs hand-rolled claim + complete', r('pg-one-step', 'hr-cycle'), 0.8, '×'),
    goal('PostgreSQL new-key claim vs @node-idempotency on Redis', r('pg-new', 'ni-new'), 0.5, '×'),
    goal('PostgreSQL duplicate claim vs @node-idempotency replay', r('pg-dup', 'ni-replay'), 1.0, '×'),
    goal('embedded PGlite new-key claims', ops('pglite-new'), 1500, '/s'),
    goal(
      'projector share of a new-key claim (CPU per operation, on vs off)',
      projectorShare('pg-new', 'pg-off-new'),
      10,
      '%',
      true,
    ) + throughputCost('pg-new', 'pg-off-new'),
    goal(
      'projector share of a duplicate claim (CPU per operation, on vs off)',
      projectorShare('pg-dup', 'pg-off-dup'),
      10,
      '%',
      true,
    ) + throughputCost('pg-dup', 'pg-off-dup'),
    goal(
      'projector share of a 3-request cycle (CPU per operation, on vs off)',
      projectorShare('pg-cycle', 'pg-off-cycle'),
      10,
      '%',
      true,
    ) + throughputCost('pg-cycle', 'pg-off-cycle'),
    '- projection lag p99 ≤ 100 ms at 1 000 claims/s: not measured by `bench:http` (see' +
      ' `npm run bench:projection-lag`)',
  ];
}

/** The RESULTS.md section of one run. */
export function resultsSection(info: HttpRunInfo, outcomes: readonly TargetOutcome[]): string {
  const other =
    info.otherCpuPercent === null
      ? ''
      : `\n- Other processes used ${info.otherCpuPercent.toFixed(1)} % of all CPUs while measuring` +
        (info.otherCpuPercent > 10 ? ' — **other work competed for the CPUs; ratios are what count**' : '');
  return [
    `## HTTP ${info.date} (npm run bench:http)`,
    '',
    `- Command: \`${info.command}\``,
    `- Machine: ${info.machine}; ${info.versions}`,
    `- Load: ${info.load}; whole run ${info.totalSeconds.toFixed(0)} s`,
    `- Load average (1 min) before / after: ${info.loadAverage[0].toFixed(2)} / ${info.loadAverage[1].toFixed(2)}${other}`,
    '',
    resultsTable(outcomes),
    '',
    '`ops/s` counts operations (a cycle is one operation of `req/op` requests); p50/p99 are per' +
      ' operation. `server µs/op`: CPU (utime+stime from /proc/<pid>/stat) of the server process per' +
      ' operation; `store µs/op`: the PostgreSQL backends of its database, or the local redis-server;' +
      ' `load-gen µs/op`: the separate load-generator process. Ratios are taken round by round' +
      ' against the baseline measured in the same round, and the median shown: ops/s against the' +
      " baseline's; `CPU × hand-rolled`: the baseline's server + store CPU per operation divided by" +
      " the target's (> 1: cheaper), which other work on a shared machine skews less than ops/s." +
      " The baselines run on Nest with Fastify, the ledger's own platform; `extra:` rows show them on" +
      ' Nest-express.',
    '',
    ...outcomes
      .filter((o) => o.result && o.result.errors > 0)
      .flatMap((o) => [
        `- ${o.target.id}: ${o.result!.errors} failed operations, the first: ${o.result!.firstError}`,
        '',
      ]),
    'Goals (projector on, as deployed; docs/performance.md):',
    '',
    ...goalLines(outcomes),
    '',
  ].join('\n');
}
