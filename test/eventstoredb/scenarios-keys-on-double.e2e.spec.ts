// test/scenarios/keys.e2e.spec.ts with every ledger on EventStoreDB through the wire-level double
// (test/support/eventstoredb-double): the same tests, the EventStoreDB adapter underneath.
import {
  runTestLedgersOnEventStoreDbDouble,
  testLedgerStore,
} from '../support/eventstoredb-double/test-ledger-on-double.js';

runTestLedgersOnEventStoreDbDouble();

// Guards the switch itself: without it the imported suite would pass on the store it asked for.
it('runs every ledger of the imported suite on the EventStoreDB adapter', () => {
  expect(testLedgerStore('pglite')).toBe('eventstoredb');
  expect(testLedgerStore('postgres')).toBe('eventstoredb');
});
await import('../scenarios/keys.e2e.spec.js');
