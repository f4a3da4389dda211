import { readFileSync } from 'node:fs';

/** Resident memory of one process, KiB (proc(5) `/proc/<pid>/status`). */
export interface ProcessMemory {
  /** VmRSS: resident now. */
  readonly rssKb: number;
  /** VmHWM: the peak resident size since the process started. */
  readonly peakKb: number;
}

/** The resident memory of process `pid` now and at its peak; null when there is no such process or no /proc. */
export function processMemory(pid: number): ProcessMemory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const memory = { rssKb: kb('VmRSS'), peakKb: kb('VmHWM') };
    return Number.isFinite(memory.rssKb) && Number.isFinite(memory.peakKb) ? memory : null;
  } catch {
    return null;
  }
}
