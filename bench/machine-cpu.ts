import { readFileSync } from 'node:fs';
import type { CpuMeter } from './harness.js';

/** Clock ticks per second of /proc/stat (USER_HZ, 100 on Linux in practice). */
const TICKS_PER_SECOND = 100;

/** Busy ticks of all CPUs so far (user, nice, system, irq, softirq, steal), or null off Linux. */
function busyTicks(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  } catch {
    return null;
  }
}

/**
 * A {@link CpuMeter} of the whole machine: busy CPU time of all processes (idle and I/O wait
 * excluded), ms, from /proc/stat; null off Linux. Minus the benchmark's own process and database
 * backends, it shows how much other work competed for the CPUs. Resolution 10 ms.
 */
export const machineCpuMeter: CpuMeter = async () => {
  const before = busyTicks();
  return async () => {
    const after = busyTicks();
    return before === null || after === null ? null : ((after - before) * 1000) / TICKS_PER_SECOND;
  };
};
