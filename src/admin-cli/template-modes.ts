import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes every file under `dir` 0644 and every directory 0755: PGlite writes 0666, which copies
 * would keep; readable by others, as the ledger may run as another user than the build.
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
