import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux in practice). */
const TICKS_PER_SECOND = 100;

/** Ends one measurement: CPU milliseconds used since it began, or null when unknown. */
export type CpuMeasurementEnd = () => Promise<number | null>;

/**
 * Measures the CPU time of the PostgreSQL backends serving one database (the benchmark's), read
 * from /proc/<pid>/stat of the pids `pg_stat_activity` lists for it. Server-wide work (WAL writer,
 * checkpointer, autovacuum) and other databases' sessions — e.g. tests running meanwhile — are not
 * counted. Works only when the server runs on this machine under Linux; otherwise every
 * measurement is null. Resolution 10 ms, so measure over seconds.
 */
export class PostgresCpuMeter {
  private constructor(private readonly monitor: pg.Client | null) {}

  /** Connects a monitoring session to the database at `connectionString`. */
  static async open(connectionString: string): Promise<PostgresCpuMeter> {
    const client = new pg.Client({ connectionString, application_name: 'ledger-bench-monitor' });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const local = readTicks(rows[0]!.pid) !== null;
    if (!local) await client.end();
    return new PostgresCpuMeter(local ? client : null);
  }

  /**
   * Starts a measurement. A backend that ends before the measurement does takes its CPU time with
   * it, and one that starts meanwhile counts from its start, so pool churn can skew a result.
   */
  async begin(): Promise<CpuMeasurementEnd> {
    const before = await this.sample();
    return async () => {
      const after = await this.sample();
      if (!before || !after) return null;
      let ms = 0;
      for (const [pid, end] of after) ms += end - (before.get(pid) ?? 0);
      return ms;
    };
  }

  /** Closes the monitoring session. */
  async close(): Promise<void> {
    await this.monitor?.end();
  }

  private async sample(): Promise<Map<number, number> | null> {
    if (!this.monitor) return null;
    const { rows } = await this.monitor.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      const ticks = readTicks(pid);
      if (ticks !== null) cpu.set(pid, (ticks * 1000) / TICKS_PER_SECOND);
    }
    return cpu;
  }
}

/** utime + stime of the local `postgres` process `pid` in clock ticks, or null when there is none. */
function readTicks(pid: number): number | null {
  try {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') return null;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm) ": state is index 0, utime index 11, stime index 12.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}
