import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes every file under `dir` 0644 and every directory (`dir` too) 0755: writable by the owner
 * only. PGlite writes its cluster files 0666, and a data directory copied from them (a copy keeps
 * the mode) would be writable by every user of the machine. Readable by others, because the
 * template belongs to the build's user and the ledger may run as another (the container image
 * builds as root and runs as `node`).
 * @throws (rejects with) the file-system error of a read or a chmod.
 */
export async function templateModes(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await templateModes(path);
    else if (entry.isFile()) await chmod(path, 0o644);
  }
}
