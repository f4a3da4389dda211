// The shared event-store contract suite, run on the EventStoreDB adapter against the wire-level
// test DOUBLE (test/support/eventstoredb-double): the real client library over real gRPC, on a
// stand-in that reproduces the server's rules. Twice: through BatchAppend (what the client uses
// against servers since 21.10) and through the Append RPC (older servers).
import { startEventStoreDbDouble } from '../support/eventstoredb-double/eventstoredb-double.js';
import { describeEventStoreContract } from '../event-store/event-store.contract.js';
import { EVENTSTOREDB_DIFFERENCES, openTestAdapter } from './eventstoredb-fixture.js';

for (const [path, serverFeatures] of [
  ['BatchAppend', true],
  ['Append', false],
] as const) {
  describeEventStoreContract(
    `EventStoreDB adapter on the wire-level double (${path})`,
    async () => {
      const double = await startEventStoreDbDouble({ serverFeatures });
      const store = await openTestAdapter(double.connectionString);
      return {
        store,
        cleanup: async () => {
          await store.close();
          await double.stop();
        },
        countStored: async (stream) => double.log.count(stream),
      };
    },
    { differences: EVENTSTOREDB_DIFFERENCES },
  );
}
