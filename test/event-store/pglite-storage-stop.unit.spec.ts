// The PGlite executor stopping after a storage failure names the free space measured at that
// moment, not the last poll's: a disk filled within one poll was reported "99 MiB free" (a fresh
// user's trial, 80 MiB volume filled by dd).
import type { PGlite } from '@electric-sql/pglite';
import { StorageUnavailableError } from '../../src/event-store/event-store.port.js';
import { MIB } from '../../src/event-store/postgres/free-space.js';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import { StorageGuard } from '../../src/event-store/postgres/storage-guard.js';

it('logs the stop with the free space measured after the failure', async () => {
  let free = 99 * MIB;
  const guard = new StorageGuard({ dataDir: '/ledger', reserveBytes: 24 * MIB, probe: async () => free });
  await guard.sample();
  const failing = {
    query: async () => {
      free = 0; // the disk filled between two polls
      throw Object.assign(new Error('could not extend file "base/5/16384": No space left on device'), {
        code: '53100',
      });
    },
  } as unknown as PGlite;
  const errors: string[] = [];
  const log = { log: () => undefined, warn: () => undefined, error: (m: string) => errors.push(m) };
  const executor = new PgliteExecutor(failing, { guard, log });
  await expect(executor.query('insert …')).rejects.toBeInstanceOf(StorageUnavailableError);
  for (let i = 0; i < 20 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(/the embedded database stopped .*\(0 MiB free\)/);
  await executor.close();
});
