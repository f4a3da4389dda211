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
  /** Settles with the running instance; rejects with the copy's or the start's error. */
  readonly opened: Promise<PgliteThread>;
}

const ahead = new Map<string, OpenAhead>();

/**
 * Starts opening the embedded data directory while the main thread loads the modules
 * (docs/decisions.md "Start-up"). Locks it first, and leaves every refusal to `openPglite`, which
 * repeats each check and takes the lock and the instance over. Never throws.
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

/** The lock and instance {@link openAhead} started for `dataDir`, handed over once, or undefined. */
export function takeOpenedAhead(dataDir: string): OpenAhead | undefined {
  const key = resolve(dataDir);
  const taken = ahead.get(key);
  ahead.delete(key);
  return taken;
}
