import { readdirSync, readFileSync } from 'node:fs';
import type { CpuMeter } from '../harness.js';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux in practice). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (utime + stime, all threads) that process `pid` used so far, ms, from
 * /proc/<pid>/stat (proc(5)); null when there is no such process or no /proc. Resolution 10 ms.
 */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "(comm) " the state is field 0, utime field 11, stime field 12 (proc(5): 3, 14, 15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** A {@link CpuMeter} of one process (e.g. a server the benchmark started); null when it is gone. */
export function processCpuMeter(pid: number): CpuMeter {
  return async () => {
    const before = processCpuMs(pid);
    return async () => {
      const after = processCpuMs(pid);
      return before === null || after === null ? null : after - before;
    };
  };
}

/** Pids of the local processes whose command name (/proc/<pid>/comm) is `comm`, e.g. `redis-server`. */
export function pidsNamed(comm: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return pids;
}

/**
 * A {@link CpuMeter} of the local Redis server (every `redis-server` process, all threads), or
 * null when none runs on this machine. Other clients of the same Redis count too.
 */
export function redisCpuMeter(): CpuMeter | null {
  const pids = pidsNamed('redis-server');
  if (pids.length === 0) return null;
  return async () => {
    const before = pids.map(processCpuMs);
    return async () => {
      const after = pids.map(processCpuMs);
      if (before.includes(null) || after.includes(null)) return null;
      return after.reduce<number>((sum, ms, i) => sum + ms! - before[i]!, 0);
    };
  };
}

/**
 * Waits until process `pid` is idle: it used less than `idleShare` of one CPU over a 200 ms
 * sample (e.g. a projector has caught up), or `maxMs` passed. Resolves to the time waited, ms.
 */
export async function waitUntilIdle(pid: number, maxMs = 5000, idleShare = 0.1): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < maxMs) {
    const before = processCpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = processCpuMs(pid);
    if (before === null || after === null || after - before < 200 * idleShare) break;
  }
  return Date.now() - t0;
}
