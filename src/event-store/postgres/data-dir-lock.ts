import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A PGlite data directory is already open in another process (or earlier in this one). */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

/** Name of the lock file inside the data directory: holds the owner's PID. */
export const LOCK_FILE = 'ledger.pid';

/** True while process `pid` exists (signal 0, POSIX kill(2); EPERM: it exists, owned by another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files this process wrote and holds. */
const held = new Set<string>();

/**
 * Takes the embedded store's data directory for this process: PGlite has one connection and no
 * cross-process locking, and two processes on one directory each grant the same claim and then
 * corrupt the files. Creates `<dir>/ledger.pid` exclusively (O_EXCL); a file left by a dead
 * process (kill -9) is taken over, and so is one holding this process's own pid that this process
 * did not write (the same pid in a later incarnation, as a container's pid 1).
 * @returns a function releasing the directory (idempotent).
 * @throws DataDirInUseError naming the directory and the process holding it.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  for (let tries = 0; tries < 2; tries++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      held.add(file);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(file);
        try {
          unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8').trim());
      // This process's own pid in a file it did not write is the last incarnation's: a
      // container's node is pid 1 on every start, so a kill -9 leaves "1" behind.
      const ours = owner === process.pid && !held.has(file);
      if (Number.isInteger(owner) && owner > 0 && !ours && alive(owner)) {
        throw new DataDirInUseError(
          `the embedded store's data directory ${dir} is in use by process ${owner}: PGlite can be opened by one process only (stop it, or remove ${file} if no ledger runs)`,
        );
      }
      unlinkSync(file); // left by a process that died: take it over
    }
  }
  throw new DataDirInUseError(`could not lock ${dir}`);
}
