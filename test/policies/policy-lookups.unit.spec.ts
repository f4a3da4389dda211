// Claims that arrive together for one tenant and action look their policy up together: when the
// cached copy is missing or expired, one read of the policy streams answers all of them, instead
// of one read per claim (a burst of 32 concurrent claims read the two streams 32 times each).
import type { EventStore, RecordedEvent } from '../../src/event-store/event-store.port.js';
import { PolicyStore } from '../../src/policies/policy-store.js';

function storeCounting(reads: string[], fail?: () => boolean): EventStore {
  return {
    read: async (stream: string): Promise<RecordedEvent[]> => {
      reads.push(stream);
      await new Promise((resolve) => setTimeout(resolve, 5)); // a round trip to the database
      if (fail?.()) throw new Error('Event store unavailable: connection terminated');
      return [];
    },
  } as unknown as EventStore;
}

it('reads a policy once for lookups that arrive together, and answers each of them', async () => {
  const reads: string[] = [];
  const policies = new PolicyStore(storeCounting(reads), { now: () => 0 });
  const answers = await Promise.all(Array.from({ length: 20 }, () => policies.policyFor('acme', 'refund')));
  expect(reads).toEqual(['policy-acme/refund', 'policy-acme/*']);
  expect(new Set(answers.map((a) => `${a.source} ${a.version}`))).toEqual(new Set(['default 0']));
  await Promise.all([policies.policyFor('acme', 'refund'), policies.policyFor('acme', 'other')]);
  expect(reads).toHaveLength(4); // cached for the first, read for the other action
});

it('does not hand a failed lookup to later ones: the next lookup reads again', async () => {
  const reads: string[] = [];
  let failing = true;
  const policies = new PolicyStore(
    storeCounting(reads, () => failing),
    { now: () => 0 },
  );
  const together = await Promise.allSettled([
    policies.policyFor('acme', 'refund'),
    policies.policyFor('acme', 'refund'),
  ]);
  expect(together.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  expect(reads).toHaveLength(1);
  failing = false;
  await expect(policies.policyFor('acme', 'refund')).resolves.toMatchObject({ source: 'default' });
});
