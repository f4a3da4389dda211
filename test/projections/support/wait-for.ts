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

/** Waits until every read model's checkpoint is at (or past) the store's head when called. */
export async function waitForCaughtUp(
  store: EventStore,
  sql: SqlQueryable,
  names: readonly string[],
  timeoutMs = 30_000,
): Promise<bigint> {
  const head = await headPosition(store);
  let last: Record<string, bigint> = {};
  try {
    await waitFor(
      async () => {
        last = await checkpoints(sql);
        // At or past it: events appended meanwhile (a sweep, an audit write) move the checkpoints on.
        return names.every((n) => last[n] !== undefined && last[n]! >= head);
      },
      `read models at ${head}`,
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${await whyBehind(sql, last, head)}`, { cause: error });
  }
  return head;
}

/**
 * What a timed-out catch-up saw: each read model's checkpoint against the head and, on
 * PostgreSQL, the oldest transactions holding a transaction id anywhere on the server (readAll
 * returns nothing positioned after them, so one long transaction stalls every catch-up).
 */
async function whyBehind(sql: SqlQueryable, last: Record<string, bigint>, head: bigint): Promise<string> {
  const behind = Object.entries(last)
    .filter(([, at]) => at < head)
    .map(([name, at]) => `${name} at ${at}`);
  let holders = '';
  try {
    const { rows } = await sql.query<{ line: string }>(
      `select concat_ws(' ', datname, application_name, state, 'xid', backend_xid::text,
              'for', round(extract(epoch from now() - xact_start))::text || ' s:', left(query, 120)) as line
         from pg_stat_activity where backend_xid is not null order by xact_start limit 3`,
    );
    holders = rows.map((r) => r.line).join(' | ');
  } catch {
    holders = 'n/a (not PostgreSQL)';
  }
  return `behind: ${behind.join(', ') || 'none'}; oldest transaction-id holders: ${holders || 'none'}`;
}
