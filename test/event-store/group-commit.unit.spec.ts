import { GroupCommit } from '../../src/event-store/group-commit.js';

/** A flush that records its batches and finishes only when the test says so. */
function controlledFlush() {
  const batches: string[][] = [];
  const finishers: (() => void)[] = [];
  const flush = (batch: readonly string[]) =>
    new Promise<string[]>((resolve) => {
      batches.push([...batch]);
      finishers.push(() => resolve(batch.map((r) => `done:${r}`)));
    });
  return { batches, flush, finishNext: () => finishers.shift()!() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('sends a lone request at once and groups what arrives while batches are in flight', async () => {
    const f = controlledFlush();
    const group = new GroupCommit(f.flush, { maxInFlight: 1, maxBatchSize: 10 });
    const first = group.submit('a', 'a');
    const rest = ['b', 'c', 'd'].map((k) => group.submit(k, k));
    await tick();
    expect(f.batches).toEqual([['a']]);
    f.finishNext();
    await tick();
    expect(f.batches).toEqual([['a'], ['b', 'c', 'd']]);
    f.finishNext();
    expect(await first).toBe('done:a');
    expect(await Promise.all(rest)).toEqual(['done:b', 'done:c', 'done:d']);
  });

  it('never puts two requests with one key in a batch, keeps arrival order, and caps the size', async () => {
    const f = controlledFlush();
    const group = new GroupCommit(f.flush, { maxInFlight: 1, maxBatchSize: 3 });
    const all = [
      group.submit('x', 'x1'),
      group.submit('x', 'x2'),
      group.submit('y', 'y1'),
      group.submit('x', 'x3'),
      group.submit('z', 'z1'),
      group.submit('w', 'w1'),
    ];
    for (let i = 0; i < 3; i++) {
      await tick();
      f.finishNext();
    }
    expect(f.batches).toEqual([['x1'], ['x2', 'y1', 'z1'], ['x3', 'w1']]);
    await Promise.all(all);
  });

  it('lets requests without a key share a batch with any request, the same stream twice included', async () => {
    const f = controlledFlush();
    const group = new GroupCommit(f.flush, { maxInFlight: 1, maxBatchSize: 3 });
    const all = [
      group.submit(null, 'a1'),
      group.submit(null, 'a2'),
      group.submit('k', 'k1'),
      group.submit(null, 'a3'),
      group.submit('k', 'k2'),
      group.submit(null, 'a4'),
    ];
    for (let i = 0; i < 3; i++) {
      await tick();
      f.finishNext();
    }
    expect(f.batches).toEqual([['a1'], ['a2', 'k1', 'a3'], ['k2', 'a4']]);
    expect(await Promise.all(all)).toEqual([
      'done:a1',
      'done:a2',
      'done:k1',
      'done:a3',
      'done:k2',
      'done:a4',
    ]);
  });

  it('rejects a request its flush returned no outcome for', async () => {
    const group = new GroupCommit<string, string>(async (batch) => batch.slice(1), {
      maxInFlight: 1,
      maxBatchSize: 10,
    });
    const first = group.submit('a', 'a');
    await expect(first).rejects.toThrow('GroupCommit: no outcome');
  });

  it('runs at most maxInFlight batches at once', async () => {
    const f = controlledFlush();
    const group = new GroupCommit(f.flush, { maxInFlight: 2, maxBatchSize: 100 });
    const all = Array.from({ length: 5 }, (_, i) => group.submit(`k${i}`, `k${i}`));
    await tick();
    expect(f.batches).toEqual([['k0'], ['k1']]);
    f.finishNext();
    await tick();
    expect(f.batches).toEqual([['k0'], ['k1'], ['k2', 'k3', 'k4']]);
    f.finishNext();
    f.finishNext();
    await Promise.all(all);
  });

  it('rejects every request of a batch whose flush throws, and goes on with the next', async () => {
    let calls = 0;
    const group = new GroupCommit<string, string>(
      async (batch) => {
        calls++;
        if (batch.includes('bad')) throw new Error('flush failed');
        return batch.map((r) => `ok:${r}`);
      },
      { maxInFlight: 1, maxBatchSize: 10 },
    );
    const lone = group.submit('a', 'a');
    const bad = group.submit('bad', 'bad');
    const sibling = group.submit('c', 'c');
    const later = group.submit('d', 'd');
    expect(await lone).toBe('ok:a');
    await expect(bad).rejects.toThrow('flush failed');
    await expect(sibling).rejects.toThrow('flush failed');
    await expect(later).rejects.toThrow('flush failed');
    expect(await group.submit('e', 'e')).toBe('ok:e');
    expect(calls).toBe(3);
  });

  it('refuses limits below 1', () => {
    expect(() => new GroupCommit(async () => [], { maxInFlight: 0, maxBatchSize: 1 })).toThrow(RangeError);
  });
});
