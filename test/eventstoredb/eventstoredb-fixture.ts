import type { StoreDifferences } from '../event-store/event-store.contract.js';
import type { EventStoreDbOptions } from '../../src/event-store/eventstoredb/eventstoredb-options.js';
import { EventStoreDbEventStore } from '../../src/event-store/eventstoredb/eventstoredb-event-store.js';

/**
 * How EventStoreDB differs from the SQL stores in the contract suite — genuine, documented server
 * properties (docs "Appending events" and "Idempotence", "Deleting events"; see
 * eventstoredb-event-store.ts). The same list applies to the double and to a real server.
 */
export const EVENTSTOREDB_DIFFERENCES: StoreDifferences = {
  noCurrentEvents: true,
  noDedupeFlag: true,
  perStreamEventIds: true,
  readAllKeepsTruncatedEvents: true,
};

/** The one-line command that starts a real server for the real-server tests (docs/eventstoredb.md "Running on EventStoreDB"). */
export const DOCKER_RUN =
  'docker run -d --name esdb-test -p 2113:2113 eventstore/eventstore:24.10 --insecure --run-projections=None --mem-db';

/** Retries fast enough for tests (the defaults wait up to 2 s between attempts). */
export const TEST_RETRY = { attempts: 4, initialDelayMs: 20, maxDelayMs: 100 } as const;

/** Opens the adapter on `connectionString` for the contract suite's `test-` streams. */
export function openTestAdapter(
  connectionString: string,
  options: Partial<EventStoreDbOptions> = {},
): Promise<EventStoreDbEventStore> {
  return EventStoreDbEventStore.open({
    connectionString,
    streamPrefixes: ['test-'],
    timeoutMs: 5_000,
    retry: TEST_RETRY,
    ...options,
  });
}
