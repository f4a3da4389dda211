import type { LoadResult } from '../../../bench/harness.js';

/**
 * A {@link LoadResult} of `opsPerSecond` operations over 1 s (p50 1 ms, p99 2 ms, no errors)
 * with the given CPU: `processCpuMs` of the measuring process and the metered ones, ms.
 */
export function oneSecondResult(
  opsPerSecond: number,
  cpu: { readonly process?: number; readonly metered?: Record<string, number | null> } = {},
): LoadResult {
  return {
    ops: opsPerSecond,
    errors: 0,
    firstError: null,
    elapsedMs: 1000,
    opsPerSecond,
    p50Ms: 1,
    p99Ms: 2,
    meanMs: 1,
    latenciesMs: new Float64Array(),
    processCpuMs: cpu.process ?? 0,
    meteredCpuMs: cpu.metered ?? {},
  };
}
