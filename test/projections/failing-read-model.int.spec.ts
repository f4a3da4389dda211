// One projector loop serves every read model; a read model that keeps failing must not hold the
// others back, and catches up once it stops failing (src/projections/core/projector.ts).
import { randomBytes } from 'node:crypto';
import { PgliteEventStore } from '../../src/event-store/postgres/pglite-event-store.js';
import { createProjectionRuntime } from '../../src/projections/create-projection-runtime.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';
import { seedOperations } from './support/seed-operations.js';
import { checkpoints } from './support/snapshot.js';
import { headPosition, waitFor, waitForCaughtUp } from './support/wait-for.js';

describe('a read model that keeps failing', () => {
  it('does not hold the other read models back, and catches up once it stops failing', async () => {
    const store = await PgliteEventStore.open({ loadDataDir: await pgliteSnapshot() });
    let metricsBroken = true;
    const errors: string[] = [];
    const runtime = createProjectionRuntime(store, store.executor, {
      instanceId: 'one-failing',
      pollMs: 50,
      retryMs: 50,
      batchSize: 100,
      beforeCommit: ({ model }) => {
        if (model === 'metrics' && metricsBroken) throw new Error('metrics is broken');
      },
      onError: (model) => errors.push(model),
    });
    try {
      await seedOperations(store, randomBytes(3).toString('hex'), 0, 60);
      await runtime.start();
      const head = await headPosition(store);
      await waitFor(async () => {
        const cp = await checkpoints(store.executor);
        return cp.operations! >= head && cp.conflicts! >= head;
      }, 'operations and conflicts caught up while metrics fails');
      expect((await checkpoints(store.executor)).metrics).toBe(-1n);
      expect(new Set(errors)).toEqual(new Set(['metrics']));
      const metrics = (await runtime.status()).find((s) => s.name === 'metrics')!;
      expect(metrics.lastError).toBe('metrics is broken');

      metricsBroken = false;
      await waitForCaughtUp(store, store.executor, ['metrics']);
      expect((await runtime.status()).find((s) => s.name === 'metrics')!.lastError).toBeNull();
    } finally {
      await runtime.stop();
      await store.close();
    }
  }, 60_000);
});
