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
 * `readAll` of the port on EventStoreDB: events of `$all` after commit position `after`, only the
 * ledger's streams and no system events. EventStoreDB assigns positions in commit order (one
 * writer appends to the log), so a checkpoint never skips a late commit. `$all` reads include
 * their start position, so the event at `after` is skipped here.
 *
 * Filtering happens here (the 6.x client filters subscriptions only), so the cost grows with other
 * streams' events: run the ledger on its own database.
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
