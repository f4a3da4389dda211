import { existsSync, renameSync, rmSync } from 'node:fs';

/**
 * Moves a finished build from `partial` to `dir`, its content-addressed name. When another
 * worker or Jest run renamed its identical build into place first, this one is dropped.
 * A plain module (not TypeScript): jest.config.js loads it through dependency-bundle.js.
 * @throws the rename's error when `dir` still does not exist afterwards.
 */
export function renameIntoPlace(partial, dir) {
  try {
    renameSync(partial, dir);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
}
