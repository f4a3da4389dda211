import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockDataDir } from './data-dir-lock.js';
import { assertRoomToOpen } from './free-space.js';
import { initdbTemplateDir, seedFromInitdbTemplate } from './initdb-template.js';
import { PgliteThread } from './pglite-thread.js';
import { RESTORE_MARKER } from './restore-marker.js';

/** A data directory this process locked and is opening the embedded database on. */
export interface OpenAhead {
  /** Releases the data directory's lock (what `lockDataDir` returned). */
  readonly unlock: () => void;
  /**
   * Settles with the running instance once the initdb template is copied in (a new directory)
   * and PGlite started on its thread; rejects with the copy's or the start's error.
   */
  readonly opened: Promise<PgliteThread>;
}

const ahead = new Map<string, OpenAhead>();

/**
 * Starts opening the embedded data directory before the application's modules load (main.ts):
 * a new directory gets its copy of the initdb template on the thread pool, then PGlite starts on
 * its worker thread ({@link PgliteThread}) — both while the main thread loads and compiles the
 * modules (docs/decisions.md "Start-up"). It locks the directory first (only the process holding
 * the lock opens it) and does nothing — leaving every refusal to `openPglite`, which repeats each
 * check — when the volume is nearly full, another process holds the lock, or a restore was cut
 * short there. `openPglite` takes the lock and the instance over ({@link takeOpenedAhead}); a
 * failure of the copy or the start surfaces there. Never throws.
 */
export function openAhead(options: {
  dataDir: string;
  diskReserveBytes: number;
  initdbTemplate?: string;
}): void {
  const dataDir = resolve(options.dataDir);
  const template = options.initdbTemplate ?? initdbTemplateDir();
  if (ahead.has(dataDir)) return;
  let unlock: () => void;
  try {
    assertRoomToOpen(dataDir, options.diskReserveBytes);
    unlock = lockDataDir(dataDir);
  } catch {
    return;
  }
  if (existsSync(join(dataDir, RESTORE_MARKER))) return unlock();
  const opened = seedFromInitdbTemplate(dataDir, template).then(() => PgliteThread.open({ dataDir }));
  opened.catch(() => undefined); // reported by whoever takes it over
  ahead.set(dataDir, { unlock, opened });
}

/**
 * The lock and instance {@link openAhead} started for `dataDir`, handed over once (the caller now
 * owns the lock and the instance), or undefined.
 */
export function takeOpenedAhead(dataDir: string): OpenAhead | undefined {
  const key = resolve(dataDir);
  const taken = ahead.get(key);
  ahead.delete(key);
  return taken;
}
