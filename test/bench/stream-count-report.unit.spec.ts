import { flatnessVerdicts, stepTable, type StreamCountStep } from '../../bench/stream-count-report.js';
import { oneSecondResult } from './support/one-second-result.js';

/** A step of `ops` operations in 1 s whose PostgreSQL backends used `pgMs` ms of CPU. */
function step(
  streams: number,
  scenario: 'new' | 'duplicate',
  path: 'baseline' | 'in-process',
  ops: number,
  pgMs: number | null,
): StreamCountStep {
  return {
    streams,
    scenario,
    path,
    result: oneSecondResult(ops, { process: ops / 10, metered: { pg: pgMs } }),
  };
}

describe('bench:stream-count report', () => {
  it('calls the duplicate cost flat within 1.25× of the smallest size, and says by how much it grew otherwise', () => {
    const steps = [
      step(1_000, 'duplicate', 'in-process', 1000, 100),
      step(1_000_000, 'duplicate', 'in-process', 1000, 124),
      step(1_000, 'new', 'in-process', 1000, 200),
      step(1_000_000, 'new', 'in-process', 1000, 2000),
    ];
    expect(flatnessVerdicts(steps)).toEqual([
      'duplicate claim, 1,000 → 1,000,000 streams, PostgreSQL CPU per claim 100 → 124 µs: flat (goal: within 1.25×): met',
      'new claim, 1,000 → 1,000,000 streams, PostgreSQL CPU per claim 200 → 2000 µs: grows 10.00× (goal: flat within 1.25×): **MISSED**',
    ]);
  });

  it('says when PostgreSQL was not metered, and gives nothing for one size only', () => {
    expect(
      flatnessVerdicts([
        step(1_000, 'duplicate', 'in-process', 1000, null),
        step(10_000, 'duplicate', 'in-process', 1000, 100),
        step(1_000, 'new', 'in-process', 1000, 100),
      ]),
    ).toEqual(['duplicate claim, 1,000 → 10,000 streams: PostgreSQL CPU not metered']);
  });

  it('tabulates each step with its ratio to the baseline of the same size and scenario', () => {
    const table = stepTable([
      step(1_000, 'duplicate', 'baseline', 2000, 300),
      step(1_000, 'duplicate', 'in-process', 1500, 150),
    ]).split('\n');
    expect(table[0]).toBe(
      '| streams | scenario | path | ops | errors | ops/s | p50 ms | p99 ms | × baseline | node cpu µs/op | pg cpu µs/op |',
    );
    expect(table[2]).toMatch(
      /^\| 1,000 \| duplicate \| baseline \| 2000 \| 0 \| 2000 \|.*\| – \| 100 \| 150 \|$/,
    );
    expect(table[3]).toMatch(
      /^\| 1,000 \| duplicate \| in-process \| 1500 \| 0 \| 1500 \|.*\| 0\.75× \| 100 \| 100 \|$/,
    );
  });
});
