// The embedded store's data directory belongs to one process: a second open is refused with a
// clear error (two PGlite instances on one directory each granted the same claim, then corrupted
// the files), and a lock left by a killed process is taken over.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, LOCK_FILE } from '../../src/event-store/postgres/data-dir-lock.js';
import { PgliteEventStore } from '../../src/event-store/postgres/pglite-event-store.js';
import { seedPgliteDataDir } from '../support/pglite-snapshot.js';

// A new directory holds a fresh cluster before the store opens it: the tests' initdb dump unpacked
// by the system's tar. Not initdb (2–3 CPU-s), and not PGlite's `loadDataDir` either: that unpacks
// the 40 MB dump inside the WebAssembly's file system, ≈ 2 CPU-s more per open than a start on a
// directory that holds a cluster (≈ 1.2 CPU-s). The lock is taken before PGlite starts either way.
async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-lock-'));
  await seedPgliteDataDir(dir);
  return dir;
}

it('refuses a second open of a data directory, and allows it again after close', async () => {
  const dir = await newDataDir();
  const first = await PgliteEventStore.open({ dataDir: dir });
  expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
  await expect(PgliteEventStore.open({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
  await first.close();
  const again = await PgliteEventStore.open({ dataDir: dir });
  await again.close();
});

it('takes over a lock file left by a process that died', async () => {
  const dir = await newDataDir();
  await writeFile(join(dir, LOCK_FILE), '2147483646'); // no such process
  const store = await PgliteEventStore.open({ dataDir: dir });
  expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
  await store.close();
});

it("takes over a lock file holding this process's own pid that this process did not write (a container's pid 1 after kill -9)", async () => {
  const dir = await newDataDir();
  await writeFile(join(dir, LOCK_FILE), String(process.pid)); // the last incarnation's, same pid
  const store = await PgliteEventStore.open({ dataDir: dir });
  expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
  // and this process's own live lock still refuses a second open
  await expect(PgliteEventStore.open({ dataDir: dir })).rejects.toThrow(/in use/);
  await store.close();
});
