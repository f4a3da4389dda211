import type { EventStore } from '../../../src/event-store/event-store.port.js';
import type { SqlQueryable } from '../../../src/event-store/sql-executor.js';
import { checkpoints } from './snapshot.js';
import { readEverything } from './oracle.js';

/** Polls `check` every `everyMs` until it returns a truthy value; throws after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Global position of the last event in the store (-1n when empty). */
export async function headPosition(store: EventStore): Promise<bigint> {
  const all = await readEverything(store);
  return all.length ? all[all.length - 1]!.globalPosition : -1n;
}

/** Waits until every read model's checkpoint is the store's head. */
export async function waitForCaughtUp(
  store: EventStore,
  sql: SqlQueryable,
  names: readonly string[],
  timeoutMs = 30_000,
): Promise<bigint> {
  const head = await headPosition(store);
  await waitFor(
    async () => {
      const cp = await checkpoints(sql);
      return names.every((n) => cp[n] === head);
    },
    `read models at ${head}`,
    timeoutMs,
  );
  return head;
}
