import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, type OpenedPglite } from '../../src/event-store/postgres/open-pglite.js';
import { WalCheckpoints } from '../../src/event-store/postgres/wal-checkpoints.js';

const MIB = 1024 * 1024;

describe('WalCheckpoints (embedded store: PGlite has no checkpointer)', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'ledger-wal-')), 'data');
  let opened: OpenedPglite;
  const walSinceCheckpoint = async () =>
    Number(
      (
        await opened.executor.query<{ since: string }>(
          `select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::bigint::text as since from pg_control_checkpoint()`,
        )
      ).rows[0]!.since,
    );
  const segments = () => readdirSync(join(dataDir, 'pg_wal')).filter((f) => /^[0-9A-F]{24}$/.test(f)).length;

  beforeAll(async () => {
    opened = await openPglite({ dataDir });
    await opened.executor.exec('create table scratch (id serial primary key, v text)');
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('checkpoints once enough WAL accumulated, so pg_wal stops growing', async () => {
    const checkpoints = new WalCheckpoints(opened.executor, { walBytes: 16 * MIB });
    let ran = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 5; i++) {
        await opened.executor.query(
          `insert into scratch (v) select repeat(md5(random()::text), 32) from generate_series(1, 2000)`,
        );
      }
      if (await checkpoints.checkpointIfDue()) ran++;
    }
    expect(ran).toBeGreaterThanOrEqual(3);
    expect(await walSinceCheckpoint()).toBeLessThan(16 * MIB);
    expect(segments()).toBeLessThanOrEqual(6); // ~120 MB of WAL written, min_wal_size 80 MB kept
    expect(await checkpoints.checkpointIfDue()).toBe(false); // nothing written since
  }, 120_000);
});
