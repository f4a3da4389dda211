import { markdownTable } from 'markdown-table';
import type { LoadResult } from '../harness.js';
import { isOneStep, type Target } from './targets.js';

/** What one target gave over all its rounds, or why it did not run. */
export interface TargetOutcome {
  readonly target: Target;
  /** All rounds combined (bench/harness.ts `combineResults`); null when the target did not run. */
  readonly result: LoadResult | null;
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

/** ops/s of the target `id` divided by ops/s of `baseId`; null when either did not run. */
export function ratio(outcomes: readonly TargetOutcome[], id: string, baseId: string | null): number | null {
  const of = (x: string | null) => outcomes.find((o) => o.target.id === x)?.result?.opsPerSecond ?? 0;
  const base = of(baseId);
  const value = of(id);
  return base > 0 && value > 0 ? value / base : null;
}

/**
 * CPU of the server and its store per operation, µs (what the machine pays for one operation),
 * or null when a part was not measured. Less skewed by other work than ops/s on a shared machine.
 */
export function cpuPerOp(o: TargetOutcome | undefined): number | null {
  const r = o?.result;
  if (!r || r.ops === 0) return null;
  const server = r.meteredCpuMs['server'];
  const store = o.store === 'postgres' || o.store === 'redis' ? r.meteredCpuMs['store'] : 0;
  return server === null || server === undefined || store === null || store === undefined
    ? null
    : ((server + store) * 1000) / r.ops;
}

/** CPU per operation of `baseId` divided by that of `id` (> 1: `id` is cheaper); null when unknown. */
export function cpuRatio(
  outcomes: readonly TargetOutcome[],
  id: string,
  baseId: string | null,
): number | null {
  const base = cpuPerOp(outcomes.find((o) => o.target.id === baseId));
  const value = cpuPerOp(outcomes.find((o) => o.target.id === id));
  return base !== null && value !== null && value > 0 ? base / value : null;
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

/** The goals of issue 13 against this run's figures (markdown list). */
export function goalLines(outcomes: readonly TargetOutcome[]): string[] {
  const r = (id: string, base: string) => ratio(outcomes, id, base);
  /** Share of the CPU per operation (server + PostgreSQL) with the projector on that it adds. */
  const cpuCost = (on: string, off: string) => {
    const c = cpuRatio(outcomes, on, off);
    return c === null
      ? ''
      : ` (by CPU per operation: ${(100 * (1 - c)).toFixed(0)} % of the cost with it on)`;
  };
  const byCpu = (id: string, base: string) => {
    const c = cpuRatio(outcomes, id, base);
    return c === null ? '' : ` (by CPU per operation: ${c.toFixed(2)}×)`;
  };
  const ops = (id: string) => outcomes.find((o) => o.target.id === id)?.result?.opsPerSecond ?? null;
  const skipped = outcomes.find((o) => o.target.id === 'pg-one-step')?.skipped;
  const cost = (on: string, off: string) => {
    const a = ops(on);
    const b = ops(off);
    return a !== null && b !== null && b > 0 ? 100 * (1 - a / b) : null;
  };
  return [
    goal('PostgreSQL new-key claim vs hand-rolled', r('pg-new', 'hr-new'), 1.0, '×') +
      byCpu('pg-new', 'hr-new'),
    goal('PostgreSQL new-key claim vs @node-idempotency on Redis', r('pg-new', 'ni-new'), 1.0, '×') +
      byCpu('pg-new', 'ni-new'),
    goal('PostgreSQL duplicate claim vs hand-rolled', r('pg-dup', 'hr-dup'), 1.0, '×') +
      byCpu('pg-dup', 'hr-dup'),
    goal('PostgreSQL duplicate claim vs @node-idempotency replay', r('pg-dup', 'ni-replay'), 1.0, '×') +
      byCpu('pg-dup', 'ni-replay'),
    skipped
      ? `- one-step job vs hand-rolled claim + complete (goal ≥ 0.8×): **MISSED**, ${skipped}`
      : goal('one-step job vs hand-rolled claim + complete', r('pg-one-step', 'hr-cycle'), 0.8, '×'),
    goal('3-request cycle vs hand-rolled claim + complete', r('pg-cycle', 'hr-cycle'), 0.5, '×') +
      byCpu('pg-cycle', 'hr-cycle'),
    goal('embedded PGlite new-key claims', ops('pglite-new'), 1500, '/s'),
    goal(
      'embedded PGlite new-key claims vs the same server on PostgreSQL',
      r('pglite-new', 'pg-new'),
      0.5,
      '×',
    ),
    goal('projector cost, new-key claims (1 − on/off)', cost('pg-new', 'pg-off-new'), 10, '%', true) +
      cpuCost('pg-new', 'pg-off-new'),
    goal('projector cost, duplicate claims', cost('pg-dup', 'pg-off-dup'), 10, '%', true) +
      cpuCost('pg-dup', 'pg-off-dup'),
    goal('projector cost, 3-request cycle', cost('pg-cycle', 'pg-off-cycle'), 10, '%', true) +
      cpuCost('pg-cycle', 'pg-off-cycle'),
    '- projection lag p99 at 1 000 claims/s and duplicate cost from 10³ to 10⁶ streams: not measured by' +
      ' `bench:http` (see `npm run bench:projection-lag` and `npm run bench:stream-count`)',
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
      ' `load-gen µs/op`: the separate load-generator process. Ratios: ops/s against the baseline of' +
      " the same run; `CPU × hand-rolled`: the baseline's server + store CPU per operation divided" +
      " by the target's (> 1: cheaper), which other work on a shared machine skews less than ops/s.",
    '',
    ...outcomes
      .filter((o) => o.result && o.result.errors > 0)
      .flatMap((o) => [
        `- ${o.target.id}: ${o.result!.errors} failed operations, the first: ${o.result!.firstError}`,
        '',
      ]),
    'Goals of issue 13 (projector on, as deployed):',
    '',
    ...goalLines(outcomes),
    '',
  ].join('\n');
}
