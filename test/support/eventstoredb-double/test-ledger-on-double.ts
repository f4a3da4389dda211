import type { StoreKind } from '../../../src/config/ledger-config.js';
import type { EventStoreDbDouble } from './eventstoredb-double.js';

/**
 * Running a test file's ledgers on EventStoreDB (through the wire-level double) instead of the
 * store the file asks for. Jest gives every test file its own module registry, so this switch
 * holds for one file: a wrapper file calls {@link runTestLedgersOnEventStoreDbDouble} and then
 * imports an existing e2e file, whose `startTestLedger('pglite' | 'postgres')` calls then start
 * EventStoreDB ledgers — the same tests, on the other store.
 */
let onDouble = false;

/** From now on, every `startTestLedger` of this test file uses the EventStoreDB adapter + double. */
export function runTestLedgersOnEventStoreDbDouble(): void {
  onDouble = true;
}

/** The store a test ledger really uses: `eventstoredb` once this file switched, else `requested`. */
export function testLedgerStore(requested: StoreKind): StoreKind {
  return onDouble ? 'eventstoredb' : requested;
}

const shared = new Map<string, { double: Promise<EventStoreDbDouble>; users: number }>();

/** The double (gRPC server), loaded only by files that run on it: the other files never load gRPC. */
async function startEventStoreDbDouble(): Promise<EventStoreDbDouble> {
  const { startEventStoreDbDouble: start } = await import('./eventstoredb-double.js');
  return start();
}

/**
 * A double for one test ledger: ledgers given the same read-model `databaseUrl` are replicas of one
 * deployment and share one double (and so one event log); any other ledger gets a fresh one.
 * `release` stops it when its last user is done.
 */
export async function doubleForTestLedger(
  databaseUrl?: string | null,
): Promise<{ connectionString: string; release(): Promise<void> }> {
  if (!databaseUrl) {
    const double = await startEventStoreDbDouble();
    return { connectionString: double.connectionString, release: () => double.stop() };
  }
  const entry = shared.get(databaseUrl) ?? { double: startEventStoreDbDouble(), users: 0 };
  shared.set(databaseUrl, entry);
  entry.users++;
  const double = await entry.double;
  let released = false;
  return {
    connectionString: double.connectionString,
    release: async () => {
      if (released) return;
      released = true;
      if (--entry.users > 0) return;
      shared.delete(databaseUrl);
      await double.stop();
    },
  };
}
