import type { LoadResult } from './harness.js';

/** Largest ÷ smallest PostgreSQL CPU per duplicate claim still called flat (the stream-count sweep's goal). */
export const FLAT_WITHIN = 1.25;

/** One measured scenario and path at one size of the event tables. */
export interface StreamCountStep {
  /** `ledger_streams` rows when the step was measured. */
  readonly streams: number;
  readonly scenario: 'new' | 'duplicate';
  readonly path: 'baseline' | 'in-process';
  readonly result: LoadResult;
}

/** µs of `meter`'s CPU per successful operation, or null when unmetered or nothing succeeded. */
export function microsPerOp(result: LoadResult, meter: 'pg' | 'process'): number | null {
  const ms = meter === 'process' ? result.processCpuMs : result.meteredCpuMs['pg'];
  if (ms == null || result.ops === 0) return null;
  return (ms * 1000) / result.ops;
}

const HEADER = [
  'streams',
  'scenario',
  'path',
  'ops',
  'errors',
  'ops/s',
  'p50 ms',
  'p99 ms',
  '× baseline',
  'node cpu µs/op',
  'pg cpu µs/op',
];

const fixed = (n: number | null, digits = 0) => (n === null ? '–' : n.toFixed(digits));

/** The steps as Markdown table rows (header included), in the order given. */
export function stepTable(steps: readonly StreamCountStep[]): string {
  const rows = steps.map((s) => {
    const baseline = steps.find(
      (b) => b.streams === s.streams && b.scenario === s.scenario && b.path === 'baseline',
    );
    const ratio =
      s.path === 'baseline' || !baseline ? null : s.result.opsPerSecond / baseline.result.opsPerSecond;
    return [
      s.streams.toLocaleString('en-US'),
      s.scenario,
      s.path,
      String(s.result.ops),
      String(s.result.errors),
      fixed(s.result.opsPerSecond),
      fixed(s.result.p50Ms, 2),
      fixed(s.result.p99Ms, 2),
      ratio === null ? '–' : `${ratio.toFixed(2)}×`,
      fixed(microsPerOp(s.result, 'process')),
      fixed(microsPerOp(s.result, 'pg')),
    ];
  });
  const align = HEADER.map((_, i) => (i >= 3 || i === 0 ? '---:' : '---'));
  return [HEADER, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/**
 * One line per scenario: the ledger's PostgreSQL CPU per operation at the largest size against
 * the smallest, "flat" within {@link FLAT_WITHIN}, else how much it grew.
 */
export function flatnessVerdicts(steps: readonly StreamCountStep[]): string[] {
  const lines: string[] = [];
  for (const scenario of ['duplicate', 'new'] as const) {
    const ledger = steps.filter((s) => s.scenario === scenario && s.path === 'in-process');
    if (ledger.length < 2) continue;
    const sorted = [...ledger].sort((a, b) => a.streams - b.streams);
    const small = sorted[0]!;
    const large = sorted[sorted.length - 1]!;
    const a = microsPerOp(small.result, 'pg');
    const b = microsPerOp(large.result, 'pg');
    const span = `${small.streams.toLocaleString('en-US')} → ${large.streams.toLocaleString('en-US')} streams`;
    if (a === null || b === null) {
      lines.push(`${scenario} claim, ${span}: PostgreSQL CPU not metered`);
      continue;
    }
    const growth = b / a;
    const verdict =
      growth <= FLAT_WITHIN
        ? `flat (goal: within ${FLAT_WITHIN}×): met`
        : `grows ${growth.toFixed(2)}× (goal: flat within ${FLAT_WITHIN}×): **MISSED**`;
    lines.push(
      `${scenario} claim, ${span}, PostgreSQL CPU per claim ${a.toFixed(0)} → ${b.toFixed(0)} µs: ${verdict}`,
    );
  }
  return lines;
}
