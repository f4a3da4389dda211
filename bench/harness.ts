import { performance } from 'node:perf_hooks';

/** One operation under load; `index` counts from 0 within one {@link runLoad} call. */
export type LoadOp = (index: number) => Promise<void>;

/** How much load {@link runLoad} applies. */
export interface LoadOptions {
  /** Clients issuing operations concurrently, each waiting for its previous one (closed loop), ≥ 1. */
  readonly concurrency: number;
  /** Stop after this many operations in total. At least one of `ops` / `durationMs` is required. */
  readonly ops?: number;
  /** Stop starting new operations after this many milliseconds (in-flight ones still finish). */
  readonly durationMs?: number;
  /** CPU meters read around the run (e.g. `pg`: the database backends, `machine`: all CPUs). */
  readonly meters?: Readonly<Record<string, CpuMeter>>;
}

/**
 * Starts measuring some CPU time (other processes, the whole machine); the function it resolves
 * to ends the measurement and gives the CPU milliseconds used meanwhile, or null when unknown.
 */
export type CpuMeter = () => Promise<() => Promise<number | null>>;

/** What one {@link runLoad} measured. Durations in milliseconds, throughput in operations per second. */
export interface LoadResult {
  /** Operations that completed without throwing. */
  readonly ops: number;
  /** Operations that threw; their latency is not counted. */
  readonly errors: number;
  /** Message of the first error, for the report. */
  readonly firstError: string | null;
  /** Wall time from the first start to the last completion, ms. */
  readonly elapsedMs: number;
  /** Successful operations per second of wall time. */
  readonly opsPerSecond: number;
  /** Median latency of one operation, ms. */
  readonly p50Ms: number;
  /** 99th-percentile latency of one operation, ms. */
  readonly p99Ms: number;
  /** Mean latency, ms. */
  readonly meanMs: number;
  /** Every successful operation's latency, ms, ascending. */
  readonly latenciesMs: Float64Array;
  /** CPU time (user + system) this Node process used during the run, ms — all threads, incl. PGlite. */
  readonly processCpuMs: number;
  /** CPU time each of {@link LoadOptions.meters} measured during the run, ms; null when unknown. */
  readonly meteredCpuMs: Readonly<Record<string, number | null>>;
}

/**
 * Runs `op` from `concurrency` closed-loop clients until `ops` operations were started or
 * `durationMs` milliseconds passed (whichever comes first), and measures each operation's latency
 * with the monotonic clock. An operation that throws is counted as an error and the load goes on.
 * @throws RangeError when neither a positive `ops` nor a positive `durationMs` is given.
 */
export async function runLoad(op: LoadOp, options: LoadOptions): Promise<LoadResult> {
  const { concurrency } = options;
  const maxOps = options.ops ?? Number.POSITIVE_INFINITY;
  const durationMs = options.durationMs ?? Number.POSITIVE_INFINITY;
  if (!(concurrency >= 1) || !Number.isInteger(concurrency)) {
    throw new RangeError(`concurrency must be an integer >= 1, got ${concurrency}`);
  }
  if (!(maxOps > 0) || !(durationMs > 0) || (maxOps === Infinity && durationMs === Infinity)) {
    throw new RangeError('runLoad needs a positive ops count or duration');
  }
  const latencies: number[] = [];
  let started = 0;
  let errors = 0;
  let firstError: string | null = null;
  const meters = Object.entries(options.meters ?? {});
  const ends = await Promise.all(meters.map(([, begin]) => begin()));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  let lastEnd = t0;

  const client = async (): Promise<void> => {
    while (started < maxOps && performance.now() < deadline) {
      const index = started++;
      const begin = performance.now();
      try {
        await op(index);
        const end = performance.now();
        latencies.push(end - begin);
        lastEnd = Math.max(lastEnd, end);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
        lastEnd = Math.max(lastEnd, performance.now());
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));

  const cpu = process.cpuUsage(cpu0);
  const metered = await Promise.all(ends.map((end) => end()));
  return summarize(Float64Array.from(latencies).sort(), errors, firstError, lastEnd - t0, {
    processCpuMs: (cpu.user + cpu.system) / 1000,
    meteredCpuMs: Object.fromEntries(meters.map(([name], i) => [name, metered[i]!])),
  });
}

/**
 * Merges the results of several {@link runLoad} calls of the same operation (e.g. rounds
 * interleaved with other scenarios) as if they were one run: operations and wall time add up,
 * percentiles come from all latencies together.
 * @throws RangeError when `results` is empty.
 */
export function combineResults(results: readonly LoadResult[]): LoadResult {
  if (results.length === 0) throw new RangeError('combineResults needs at least one result');
  const all = new Float64Array(results.reduce((n, r) => n + r.latenciesMs.length, 0));
  let at = 0;
  for (const r of results) {
    all.set(r.latenciesMs, at);
    at += r.latenciesMs.length;
  }
  return summarize(
    all.sort(),
    results.reduce((n, r) => n + r.errors, 0),
    results.find((r) => r.firstError !== null)?.firstError ?? null,
    results.reduce((ms, r) => ms + r.elapsedMs, 0),
    {
      processCpuMs: results.reduce((ms, r) => ms + r.processCpuMs, 0),
      meteredCpuMs: Object.fromEntries(
        Object.keys(results[0]!.meteredCpuMs).map((name) => {
          const parts = results.map((r) => r.meteredCpuMs[name] ?? null);
          return [name, parts.includes(null) ? null : parts.reduce((a, b) => a! + b!, 0)];
        }),
      ),
    },
  );
}

function summarize(
  sorted: Float64Array,
  errors: number,
  firstError: string | null,
  elapsedMs: number,
  cpu: Pick<LoadResult, 'processCpuMs' | 'meteredCpuMs'>,
): LoadResult {
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    ops: sorted.length,
    errors,
    firstError,
    elapsedMs,
    opsPerSecond: elapsedMs > 0 ? (sorted.length * 1000) / elapsedMs : 0,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sorted.length ? sum / sorted.length : Number.NaN,
    latenciesMs: sorted,
    ...cpu,
  };
}

/**
 * The `p`-th percentile (0 < p ≤ 100, nearest-rank method) of ascending `sorted` values, in the
 * values' unit; NaN when there are none.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
