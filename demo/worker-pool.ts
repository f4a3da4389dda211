/**
 * Runs `handle` over `items` with at most `concurrency` handlers in flight, taking items in order
 * (a shared queue, like N workers consuming one webhook queue). Resolves when every item is done;
 * rejects with the first handler error after the in-flight handlers have settled.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  handle: (item: T, workerIndex: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (workerIndex: number) => {
    while (next < items.length) {
      const item = items[next++]!;
      await handle(item, workerIndex);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, (_, i) =>
    worker(i),
  );
  const results = await Promise.allSettled(workers);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
