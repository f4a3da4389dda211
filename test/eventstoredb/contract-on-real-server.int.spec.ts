// The shared event-store contract suite against a REAL EventStoreDB server, when
// EVENTSTORE_CONNECTION_STRING names one (e.g. esdb://127.0.0.1:2113?tls=false). Without it the
// suite is reported as skipped, with the reason — never as passed.
import { describeEventStoreContract } from '../event-store/event-store.contract.js';
import { DOCKER_RUN, EVENTSTOREDB_DIFFERENCES, openTestAdapter } from './eventstoredb-fixture.js';

const connectionString = process.env['EVENTSTORE_CONNECTION_STRING'];

if (connectionString) {
  describeEventStoreContract(
    `EventStoreDB adapter on a real server (${connectionString})`,
    async () => {
      const store = await openTestAdapter(connectionString);
      return { store, cleanup: () => store.close() };
    },
    { differences: EVENTSTOREDB_DIFFERENCES, setupTimeoutMs: 30_000 },
  );
} else {
  const reason = `SKIPPED: real EventStoreDB contract suite — set EVENTSTORE_CONNECTION_STRING to run it, e.g. \`${DOCKER_RUN}\` then EVENTSTORE_CONNECTION_STRING='esdb://127.0.0.1:2113?tls=false'`;
  console.warn(reason);
  describe.skip(`real EventStoreDB (set EVENTSTORE_CONNECTION_STRING to run: ${DOCKER_RUN})`, () => {
    it('runs the EventStore contract suite against a real server', () => undefined);
  });
}
