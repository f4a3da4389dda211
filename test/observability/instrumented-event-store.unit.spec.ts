// The metrics decorator sits on every append of the claim path: it must hand every port call to
// the adapter unchanged, and never hide a method an adapter offers (losing `peek` would quietly
// switch the held copies of refused claims off).
import { type EventStore, WrongExpectedVersionError } from '../../src/event-store/event-store.port.js';
import { EventStoreDbEventStore } from '../../src/event-store/eventstoredb/eventstoredb-event-store.js';
import { SqlEventStore } from '../../src/event-store/sql-event-store.js';
import {
  InstrumentedEventStore,
  unwrapEventStore,
} from '../../src/observability/prometheus/instrumented-event-store.js';
import { LedgerMetrics } from '../../src/observability/prometheus/ledger-metrics.js';

/** Adapter members that are not part of the port (wiring, internals); anything else must pass through. */
const ADAPTER_ONLY: Record<string, readonly string[]> = {
  SqlEventStore: [
    'executor',
    'watchOtherWriters',
    'signalOtherProcesses',
    'appendedHere',
    'announceAppended',
    'assertOpen',
  ],
  EventStoreDbEventStore: ['setStreamMaxAge', 'releaseOnClose'],
};

function methodsOf(adapter: { prototype: object; name: string }): string[] {
  return Object.getOwnPropertyNames(adapter.prototype).filter(
    (name) => name !== 'constructor' && !(ADAPTER_ONLY[adapter.name] ?? []).includes(name),
  );
}

/** What each fake method answers: a marker of its name (`appendBatch` answers an empty batch). */
const BATCH_RESULT: unknown[] = [];
const resultOf = (name: string): unknown => (name === 'appendBatch' ? BATCH_RESULT : `${name}-result`);

/** A store whose every port method records its call and answers {@link resultOf} its name. */
function recordingStore(calls: string[]): EventStore {
  const answer =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push(`${name}(${args.length})`);
      return name === 'peek' || name === 'subscribeToAppends'
        ? resultOf(name)
        : Promise.resolve(resultOf(name));
    };
  const names = new Set([...methodsOf(SqlEventStore), ...methodsOf(EventStoreDbEventStore)]);
  return Object.fromEntries([...names].map((n) => [n, answer(n)])) as unknown as EventStore;
}

describe('InstrumentedEventStore', () => {
  it.each([SqlEventStore, EventStoreDbEventStore])(
    'offers every port method %p has, and forwards each call with its result',
    async (adapter) => {
      const calls: string[] = [];
      const inner = recordingStore(calls);
      const store = new InstrumentedEventStore(inner, new LedgerMetrics({ processMetrics: false }));
      for (const name of methodsOf(adapter)) {
        const method = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
        expect({ name, type: typeof method }).toEqual({ name, type: 'function' });
        const args = name === 'appendBatch' ? [[]] : ['operation-t:a:b', [], 'no_stream'];
        expect(await method!.apply(store, args)).toBe(resultOf(name));
      }
      expect(calls.length).toBe(methodsOf(adapter).length);
      expect(unwrapEventStore(store)).toBe(inner);
    },
  );

  it('passes a refusal through as the same error', async () => {
    const refusal = new WrongExpectedVersionError('operation-t:a:b', 'no_stream', 0n);
    const inner = {
      append: () => Promise.reject(refusal),
      read: () => Promise.resolve([]),
    } as unknown as EventStore;
    const store = new InstrumentedEventStore(inner, new LedgerMetrics({ processMetrics: false }));
    await expect(store.append('operation-t:a:b', [], 'no_stream')).rejects.toBe(refusal);
  });
});
