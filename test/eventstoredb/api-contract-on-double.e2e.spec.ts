// test/api/contract.e2e.spec.ts with every ledger on EventStoreDB through the wire-level double
// (test/support/eventstoredb-double): the same tests, the EventStoreDB adapter underneath.
import { runTestLedgersOnEventStoreDbDouble } from '../support/eventstoredb-double/test-ledger-on-double.js';

runTestLedgersOnEventStoreDbDouble();
await import('../api/contract.e2e.spec.js');
