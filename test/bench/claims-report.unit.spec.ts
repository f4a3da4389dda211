import type { ScenarioKind } from '../../bench/claim-scenarios.js';
import {
  formatTable,
  oneStepLines,
  otherCpuShare,
  type BenchPath,
  type Measurement,
} from '../../bench/report.js';
import { oneSecondResult } from './support/one-second-result.js';

/** A measurement of `opsPerSecond` over 1 s, with the given CPU meters. */
function m(
  kind: ScenarioKind,
  path: BenchPath,
  opsPerSecond: number,
  cpu: { process?: number; metered?: Record<string, number | null> } = {},
): Measurement {
  return { store: 'postgres', kind, path, result: oneSecondResult(opsPerSecond, cpu) };
}

describe('bench:claims one-step job', () => {
  it('compares the one-step job with the 3-request cycle and with the hand-rolled baseline, per path', () => {
    const all = [
      m('cycle', 'baseline', 1000),
      m('cycle', 'in-process', 400),
      m('cycle', 'http', 100),
      m('one-step', 'baseline', 1100),
      m('one-step', 'in-process', 500),
      m('one-step', 'http', 150),
    ];
    expect(oneStepLines(all)).toEqual([
      'postgres: one-step job in-process 500 jobs/s vs claim→step→confirm 400/s: 1.25×; vs the baseline 0.45× (the cycle 0.40×)',
      'postgres: one-step job over HTTP (SDK, 2 requests) 150 jobs/s vs claim→step→confirm (3 requests) 100/s: 1.50×; vs the baseline 0.14× (the cycle 0.10×)',
    ]);
  });

  it('says what was not measured instead of a ratio', () => {
    expect(oneStepLines([m('one-step', 'http', 150)])).toEqual([
      'postgres: one-step job over HTTP (SDK, 2 requests) 150 jobs/s vs claim→step→confirm (3 requests): not measured; vs the baseline: not measured',
    ]);
    expect(oneStepLines([m('cycle', 'http', 100)])).toEqual([]);
  });
});

describe('bench:claims CPU of the separate load generator', () => {
  it('is its own column and is not counted as other work on the machine', () => {
    const all = [
      m('new', 'baseline', 1000, { process: 100, metered: { machine: 300, pg: 200 } }),
      m('new', 'http', 500, { process: 400, metered: { machine: 1000, pg: 200, loadgen: 250 } }),
    ];
    // 2 CPUs × 2 s measured; other = (300 − 100 − 200) + (1000 − 400 − 200 − 250) = 150 ms
    expect(otherCpuShare(all, 'postgres', 2)).toBeCloseTo(150 / 4000);
    const [header, baseline, http] = formatTable(all).split('\n');
    expect(header).toMatch(/node cpu µs\/op +load-gen cpu µs\/op +pg cpu µs\/op/);
    expect(
      baseline!
        .trim()
        .split(/\s{2,}/)
        .slice(-3),
    ).toEqual(['100', '—', '200']);
    expect(
      http!
        .trim()
        .split(/\s{2,}/)
        .slice(-3),
    ).toEqual(['800', '500', '400']);
  });
});
