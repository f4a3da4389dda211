import {
  START,
  type AllStreamResolvedEvent,
  type EventStoreDBClient,
  type ReadPosition,
} from '@eventstore/db-client';
import type { RecordedEvent } from '../event-store.port.js';
import { collectRead, type CallRunner } from './call-runner.js';
import { toRecordedEvent } from './recorded-event-mapping.js';

/** Smallest and largest `$all` page read per round trip. */
const MIN_PAGE = 64;
const MAX_PAGE = 4096;

/**
 * `readAll` of the port on EventStoreDB: events of `$all` with commit position > `after`, in log
 * order, at most `limit`, keeping only the ledger's streams (`prefixes`) and no system events
 * (types starting with `$`, as the client's `excludeSystemEvents` filter).
 *
 * Positions: the port's checkpoint is the commit position; events appended through gRPC have
 * commit = prepare (see toRecordedEvent), so a read resumes at `{ commit: after, prepare: after }`
 * — `$all` reads are inclusive of that position, so the event at `after` itself is skipped.
 * `after` must be -1n (the start) or a `globalPosition` this store returned. EventStoreDB assigns
 * positions in commit order (one writer appends to the log), so a checkpoint never skips a late
 * commit, as the port requires.
 *
 * Filtering happens here: the 6.x client reads `$all` without a server-side filter (it offers
 * filters on subscriptions only). Pages are read until `limit` events matched or `$all` ends, so
 * the cost grows with events of other streams in between; run the ledger on its own database.
 */
export async function readAllFiltered(
  client: EventStoreDBClient,
  run: CallRunner,
  prefixes: readonly string[],
  after: bigint,
  limit: number,
): Promise<RecordedEvent[]> {
  const pageSize = Math.min(Math.max(limit + 1, MIN_PAGE), MAX_PAGE);
  const found: RecordedEvent[] = [];
  let cursor = after;
  let from: ReadPosition = after < 0n ? START : { commit: after, prepare: after };
  for (;;) {
    const page: AllStreamResolvedEvent[] = await run({ what: 'read $all', safe: true }, (context) =>
      collectRead(context, () => client.readAll({ fromPosition: from, maxCount: pageSize })),
    );
    for (const { event } of page) {
      if (!event || event.position.commit <= cursor) continue;
      cursor = event.position.commit;
      if (event.type.startsWith('$') || !prefixes.some((p) => event.streamId.startsWith(p))) continue;
      found.push(toRecordedEvent(event));
      if (found.length === limit) return found;
    }
    if (page.length < pageSize) return found;
    if (typeof from === 'object' && cursor === from.commit)
      throw new Error(`$all read made no progress at ${cursor}`);
    from = { commit: cursor, prepare: cursor };
  }
}
