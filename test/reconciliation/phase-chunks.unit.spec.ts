// A run's match and categorize phases work in chunks of lines, each after a progress write that
// checks free space first (docs/reconciliation.md "Storage bounds"): a run over 45 lines with
// chunks of 10 sends five statements per phase, and when the volume runs short the run stops
// before its next chunk — no statement after the check that refused.
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { PhaseContext } from '../../src/reconciliation/job/phase-context.js';
import { runPhases } from '../../src/reconciliation/job/run-phases.js';
import type { LedgerWrites } from '../../src/reconciliation/ledger-writes.js';
import type { ReconciliationRun } from '../../src/reconciliation/run.js';
import { DiskFloorError } from '../../src/reconciliation/storage-bounds.js';

const LINES = 45;

/** A database that knows the run's line count and accepts every write, recording the statements. */
function fakeSql(log: { text: string; params: unknown[] }[]): SqlExecutor {
  const sql: SqlExecutor = {
    async query<T>(text: string, params: unknown[] = []) {
      log.push({ text, params });
      if (text.includes('max(line)') && text.includes('destination_rows'))
        return { rows: [{ n: String(LINES) }] as T[] };
      if (text.includes('max(line)')) return { rows: [{ n: null }] as T[] };
      if (text.includes('update ledger_reconciliations')) return { rows: [{ id: 'r' }] as T[] };
      return { rows: [] as T[] };
    },
    queryPrepared: (_n, text, params) => sql.query(text, params),
    exec: async () => undefined,
    transaction: (fn) => fn(sql),
  };
  return sql;
}

const run = {
  id: '00000000-0000-4000-8000-000000000001',
  tenant: 'acme',
  action: null,
  match: 'operationId',
  apply: 'none',
  options: { idField: 'id', refField: 'reference', refPrefix: null, compare: [], awaitSource: false },
  phase: 'match',
  progress: { done: 0, total: 0 },
  checkpoint: '7',
  // 1 000 bytes a row and a 160 000-byte headroom: 10 lines per chunk (chunk-lines.ts)
  stored: { rows: LINES, bytes: LINES * 1000 },
} as unknown as ReconciliationRun;

function context(sql: SqlExecutor, checkRoom: () => Promise<void>) {
  const clock = { now: () => 0 };
  return new PhaseContext(
    sql,
    {} as LedgerWrites,
    clock as never,
    'me',
    run,
    () => undefined,
    async () => undefined,
    checkRoom,
    160_000,
  );
}

const ranges = (log: { text: string; params: unknown[] }[], marker: string) =>
  log.filter((s) => s.text.includes(marker)).map((s) => s.params.slice(-2));

describe('the phases of a run, chunk by chunk', () => {
  it('match and categorize the lines in chunks sized by the run’s rows, then complete', async () => {
    const log: { text: string; params: unknown[] }[] = [];
    let checks = 0;
    await runPhases(context(fakeSql(log), async () => void checks++));
    const chunks = [
      [0, 10],
      [10, 20],
      [20, 30],
      [30, 40],
      [40, 45],
    ];
    expect(ranges(log, 'update ledger_recon_destination_rows d set operation_id')).toEqual(chunks);
    expect(ranges(log, 'left join ledger_recon_first_rows f on f.recon_id')).toEqual(chunks);
    expect(log.some((s) => s.text.includes("status = 'completed'"))).toBe(true);
    expect(checks).toBeGreaterThanOrEqual(10); // one check before every chunk at least
  });

  it('stops before the next chunk once free space is short, and writes nothing after', async () => {
    const log: { text: string; params: unknown[] }[] = [];
    let checks = 0;
    const room = async () => {
      if (++checks === 3) throw new DiskFloorError('storage: 90 MiB free …');
    };
    await expect(runPhases(context(fakeSql(log), room))).rejects.toBeInstanceOf(DiskFloorError);
    expect(ranges(log, 'update ledger_recon_destination_rows d set operation_id')).toEqual([
      [0, 10],
      [10, 20],
    ]);
    expect(log.at(-1)!.params.slice(-2)).toEqual([10, 20]); // the last statement: the chunk before the refusal
    expect(log.some((s) => s.text.includes('insert into ledger_recon_items'))).toBe(false);
  });
});
