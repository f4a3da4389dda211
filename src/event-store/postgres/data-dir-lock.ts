import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A PGlite data directory is already open in another process (or earlier in this one). */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

/** Name of the lock file inside the data directory: holds the owner's PID. */
export const LOCK_FILE = 'ledger.pid';

/** True for the lock file and the drafts taking it creates: the process's, not the database's. */
export function isLockFile(name: string): boolean {
  return name === LOCK_FILE || name.startsWith(`${LOCK_FILE}.`);
}

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

/** How long a starting process waits for a rival's takeover (or a half-written file) to settle, ms. */
const SETTLE_MS = 2_000;
/** A lock file without a pid this much younger than now is a rival's being written, not a corpse, ms. */
const UNWRITTEN_GRACE_MS = 2_000;

/**
 * Takes the embedded store's data directory for this process: PGlite has no cross-process
 * locking, and two processes on one directory each grant the same claim and corrupt the files.
 *
 * `<dir>/ledger.pid` holds the owner's pid, never seen empty: it is written to a private file and
 * hard-linked into place (link(2) is create-if-absent like O_EXCL, with the content already there).
 * A file left by a dead process is taken over under `<dir>/ledger.pid.takeover`, taken the same
 * way, and only if the lock file still holds what was judged stale — so of several processes
 * starting on a stale lock exactly one wins. A takeover lock older than 2 s was left by a crash.
 * @returns a function releasing the directory (idempotent).
 * @throws DataDirInUseError naming the directory and the process holding it, or saying that the
 *   lock did not settle within 2 s.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    if (createWithPid(file) || takeOver(file)) return releaser(file);
    const owner = inspect(file);
    if (owner.kind === 'live') {
      throw new DataDirInUseError(
        `the embedded store's data directory ${dir} is in use by process ${owner.pid}: PGlite can be opened by one process only (stop it, or remove ${file} if no ledger runs)`,
      );
    }
    if (Date.now() > deadline) {
      throw new DataDirInUseError(
        `could not lock ${dir}: ${file} did not settle within ${SETTLE_MS} ms (another process is starting on it; remove the file if no ledger runs)`,
      );
    }
    pause(10);
  }
}

/** What a lock file says about its owner. */
type Owner =
  | { kind: 'live'; pid: number }
  | { kind: 'stale'; content: string }
  | { kind: 'unwritten' }
  | { kind: 'gone' };

function inspect(file: string): Owner {
  let content: string;
  let mtimeMs: number;
  try {
    content = readFileSync(file, 'utf8');
    mtimeMs = statSync(file).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw err;
  }
  const pid = Number(content.trim());
  if (!Number.isInteger(pid) || pid <= 0 || content.trim() === '') {
    // Written by an older ledger between its create and its write, or cut short by a crash.
    return Date.now() - mtimeMs < UNWRITTEN_GRACE_MS ? { kind: 'unwritten' } : { kind: 'stale', content };
  }
  // This process's own pid in a file it did not write is the last incarnation's: a container's
  // node is pid 1 on every start, so a kill -9 leaves "1" behind.
  const ours = pid === process.pid && !held.has(file);
  return !ours && alive(pid) ? { kind: 'live', pid } : { kind: 'stale', content };
}

/** Creates `file` holding this process's pid if no such file exists; false if one does. */
function createWithPid(file: string): boolean {
  const draft = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(draft, String(process.pid), { flag: 'wx' });
  try {
    linkSync(draft, file);
    held.add(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(draft);
  }
}

/** Replaces a stale lock file by ours under the takeover lock; false if it is not stale or busy. */
function takeOver(file: string): boolean {
  const seen = inspect(file);
  if (seen.kind !== 'stale') return false;
  const mutex = `${file}.takeover`;
  if (!createWithPid(mutex)) {
    const holder = inspect(mutex);
    if (holder.kind === 'stale') removeIfSame(mutex, holder.content);
    // A takeover lasts microseconds: an old one was left by a crash, whoever has its pid now.
    else if (holder.kind === 'live' && ageMs(mutex) > UNWRITTEN_GRACE_MS)
      unlinkIfHolding(mutex, String(holder.pid));
    return false;
  }
  try {
    if (!removeIfSame(file, seen.content)) return false;
    return createWithPid(file);
  } finally {
    held.delete(mutex);
    unlinkSync(mutex);
  }
}

/** Removes `file` if it still holds `content`; true if it is gone afterwards. */
function removeIfSame(file: string, content: string): boolean {
  const now = inspect(file);
  if (now.kind === 'gone') return true;
  if (now.kind !== 'stale' || now.content !== content) return false;
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return true;
}

/** Milliseconds since `file` was last written; 0 if it is gone. */
function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkIfHolding(file: string, content: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === content) unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function releaser(file: string): () => void {
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
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` milliseconds (the lock is taken synchronously, once, at start-up). */
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
