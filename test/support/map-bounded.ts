/**
 * `task` over `items` with at most `limit` tasks in flight, started in the order of `items` (a
 * lane takes the next item when its task settles). Resolves with the results in the order of
 * `items`; rejects with the first rejection (tasks already started run on).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
