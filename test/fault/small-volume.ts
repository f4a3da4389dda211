import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MIB = 1024 * 1024;

/** A tmpfs of a few MiB mounted for one test file, with a filler file to take its space. */
export interface SmallVolume {
  /** Where it is mounted. */
  readonly dir: string;
  /** Bytes free now. */
  free(): number;
  /** Writes the filler so that about `bytes` stay free (replacing an earlier filler). */
  fillLeaving(bytes: number): void;
  /** Removes the filler. */
  unfill(): void;
  /** Unmounts (lazily if a process still holds a file there) and removes the mount point. Idempotent. */
  unmount(): void;
}

/** Whether this process may mount a tmpfs (root). */
export const canMount = () => process.getuid?.() === 0;

/**
 * Mounts a tmpfs of `sizeMiB` on a new directory under the temp dir (`mount -t tmpfs`, root only).
 * Always {@link SmallVolume.unmount} it in `afterAll`, even after a failure.
 */
export function mountSmallVolume(sizeMiB: number): SmallVolume {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-volume-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir]);
  const filler = join(dir, 'filler');
  let mounted = true;
  const free = () => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  const unfill = () => rmSync(filler, { force: true });
  return {
    dir,
    free,
    fillLeaving(bytes) {
      unfill();
      let left = free() - bytes;
      const chunk = Buffer.alloc(MIB, 0x5a);
      const fd = openSync(filler, 'w');
      try {
        while (left > 0) {
          const n = Math.min(left, MIB);
          writeSync(fd, chunk, 0, n);
          left -= n;
        }
      } finally {
        closeSync(fd);
      }
    },
    unfill,
    unmount() {
      if (!mounted) return;
      mounted = false;
      try {
        execFileSync('umount', [dir]);
      } catch {
        execFileSync('umount', ['-l', dir]);
      }
      rmdirSync(dir);
    },
  };
}
