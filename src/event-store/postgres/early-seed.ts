import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockDataDir } from './data-dir-lock.js';
import { assertRoomToOpen } from './free-space.js';
import { initdbTemplateDir, seedFromInitdbTemplate } from './initdb-template.js';
import { RESTORE_MARKER } from './restore-marker.js';

/** A data directory this process locked and is copying the initdb template into. */
export interface SeedAhead {
  /** Releases the data directory's lock (what `lockDataDir` returned). */
  readonly unlock: () => void;
  /** Settles when the copy is done; rejects with its file-system error. */
  readonly seeded: Promise<boolean>;
}

const ahead = new Map<string, SeedAhead>();

/**
 * Starts a first start's copy of the initdb template into a NEW embedded data directory before
 * the application's modules load (main.ts), so that the copy — 0.2–1.4 s of disk work on the
 * 2-core machine — runs on the thread pool while the main thread loads and compiles them. It
 * locks the directory first (only the process holding the lock writes into it) and does nothing
 * — leaving every refusal to `openPglite`, which repeats each check — when the directory holds a
 * cluster, the build has no template, the volume is nearly full, another process holds the lock,
 * or a restore was cut short there. `openPglite` takes the lock and the copy over
 * ({@link takeSeedAhead}); the copy's failure surfaces there. Never throws.
 */
export function seedAhead(options: {
  dataDir: string;
  diskReserveBytes: number;
  initdbTemplate?: string;
}): void {
  const dataDir = resolve(options.dataDir);
  const template = options.initdbTemplate ?? initdbTemplateDir();
  if (
    ahead.has(dataDir) ||
    existsSync(join(dataDir, 'PG_VERSION')) ||
    !existsSync(join(template, 'PG_VERSION'))
  )
    return;
  let unlock: () => void;
  try {
    assertRoomToOpen(dataDir, options.diskReserveBytes);
    unlock = lockDataDir(dataDir);
  } catch {
    return;
  }
  if (existsSync(join(dataDir, RESTORE_MARKER))) return unlock();
  const seeded = seedFromInitdbTemplate(dataDir, template);
  seeded.catch(() => undefined); // reported by whoever takes it over
  ahead.set(dataDir, { unlock, seeded });
}

/**
 * The lock and copy {@link seedAhead} started for `dataDir`, handed over once (the caller now
 * owns the lock), or undefined.
 */
export function takeSeedAhead(dataDir: string): SeedAhead | undefined {
  const key = resolve(dataDir);
  const taken = ahead.get(key);
  ahead.delete(key);
  return taken;
}
