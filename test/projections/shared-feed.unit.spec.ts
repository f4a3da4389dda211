// One feed, many subscribers: the shared cursor reads each change once for all of them, and every
// subscriber — live, resumed from an older position, or too slow for a while — still receives
// every change after its position exactly once, in position order.
import type { StoredChange } from '../../src/projections/core/read-model.js';
import type { FeedSubscriber } from '../../src/projections/subscriptions/feed-subscriber.js';
import { SharedFeed } from '../../src/projections/subscriptions/shared-feed.js';

/** A feed's rows as the read model holds them: one change per position, read like readFeed. */
class FakeFeed {
  readonly changes: StoredChange[] = [];
  reads = 0;
  private next = 1n;

  append(count: number): void {
    for (let i = 0; i < count; i++) {
      const position = this.next++;
      const state = position % 2n === 0n ? 'confirmed' : 'in_progress';
      this.changes.push({ feed: 'operations', tenant: 't', position, type: 'operation', data: { state } });
    }
  }

  /** Events of other tenants or feeds: the checkpoint moves, this feed gets no row. */
  skipTo(position: bigint): void {
    this.next = position + 1n;
  }

  read = async (after: bigint, limit: number): Promise<StoredChange[]> => {
    this.reads++;
    await Promise.resolve();
    return this.changes.filter((c) => c.position > after).slice(0, limit);
  };
}

/** A subscriber that records the positions it was sent; `slow` makes its buffer report full once. */
class Recorder implements FeedSubscriber {
  readonly got: bigint[] = [];
  /** What each write handed over, as given (to tell one shared encoding from one per subscriber). */
  readonly chunks: unknown[] = [];
  closed = false;
  constructor(
    public after: bigint,
    readonly filterKey = '{}',
    private slowOnce = false,
    private readonly drainMs = 5,
  ) {}
  accepts(change: StoredChange): boolean {
    return this.filterKey === '{}' || change.data.state === JSON.parse(this.filterKey).state;
  }
  write(chunk: Buffer, through: bigint): boolean {
    this.chunks.push(chunk);
    for (const m of chunk.toString('utf8').matchAll(/^id: (\d+)$/gm)) this.got.push(BigInt(m[1]!));
    this.after = through;
    const full = this.slowOnce;
    this.slowOnce = false;
    return !full;
  }
  drained(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.drainMs));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));

/** A feed at position 0 read at once on every wake, with `count` subscribers joined to it. */
async function liveFeed(count: number) {
  const feed = new FakeFeed();
  const shared = new SharedFeed(feed.read, 0n, 60_000, Infinity);
  const live = Array.from({ length: count }, () => new Recorder(0n));
  for (const s of live) shared.add(s);
  await settle();
  return { feed, shared, live };
}

it('reads each projected batch once for 500 subscribers, and each receives every change', async () => {
  const feed = new FakeFeed();
  feed.append(10);
  const shared = new SharedFeed(feed.read, 10n, 60_000, Infinity);
  const live = Array.from({ length: 500 }, () => new Recorder(10n));
  for (const s of live) shared.add(s);
  await settle();
  feed.reads = 0;
  for (let batch = 0; batch < 5; batch++) {
    feed.append(4);
    shared.wake();
    await settle();
  }
  shared.stop();
  expect(feed.reads).toBe(5);
  for (const s of live) expect(s.got).toEqual(range(11, 30));
});

it('encodes each page once per filter: subscribers of one filter are handed the very same bytes', async () => {
  const feed = new FakeFeed();
  const shared = new SharedFeed(feed.read, 0n, 60_000, Infinity);
  const all = Array.from({ length: 300 }, () => new Recorder(0n));
  const confirmed = Array.from(
    { length: 200 },
    () => new Recorder(0n, JSON.stringify({ state: 'confirmed' })),
  );
  for (const s of [...all, ...confirmed]) shared.add(s);
  await settle();
  feed.append(6);
  shared.wake();
  await settle();
  feed.append(2);
  shared.wake();
  await settle();
  shared.stop();
  const handed = [...all, ...confirmed].flatMap((s) => s.chunks);
  expect(handed).toHaveLength(500 * 2); // one write per subscriber per page
  const distinct = new Set(handed);
  expect(distinct.size).toBe(2 * 2); // one encoding per filter per page, not one per subscriber
  for (const chunk of distinct) expect(Buffer.isBuffer(chunk)).toBe(true);
  for (const s of all) expect(s.got).toEqual(range(1, 8));
  for (const s of confirmed) expect(s.got).toEqual([2n, 4n, 6n, 8n]);
});

it('paces its reads by the number of subscribers, so a burst of batches costs few fan-outs', async () => {
  const feed = new FakeFeed();
  const shared = new SharedFeed(feed.read, 0n, 60_000, 1_000); // 500 subscribers: reads ≥ 500 ms apart
  const live = Array.from({ length: 500 }, () => new Recorder(0n));
  for (const s of live) shared.add(s);
  await settle();
  feed.reads = 0;
  for (let batch = 0; batch < 10; batch++) {
    feed.append(2);
    shared.wake();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, 700));
  shared.stop();
  expect(feed.reads).toBeLessThanOrEqual(2); // unpaced: one per wake, 10
  for (const s of live) expect(s.got).toEqual(range(1, 20));
});

it('hands the changes of one paced read to a subscriber in one write, however many pages they took', async () => {
  const { feed, shared, live } = await liveFeed(50);
  feed.append(900); // four and a half pages of 200 since the last read
  shared.wake();
  await settle();
  shared.stop();
  // a socket write costs about the same for 1 KB as for 100 KB: the count of writes is the cost
  for (const s of live) expect(s.chunks).toHaveLength(1);
  for (const s of live) expect(s.got).toEqual(range(1, 900));
});

it('a subscriber behind the cursor catches up on its own reads, then joins; filters apply per subscriber', async () => {
  const feed = new FakeFeed();
  feed.append(450); // more than one page behind
  const shared = new SharedFeed(feed.read, 450n, 60_000);
  const live = new Recorder(450n);
  const confirmedOnly = new Recorder(450n, JSON.stringify({ state: 'confirmed' }));
  shared.add(live);
  shared.add(confirmedOnly);
  const resumed = new Recorder(5n);
  shared.add(resumed);
  feed.append(3);
  shared.wake();
  await settle();
  feed.append(3);
  shared.wake();
  await settle();
  shared.stop();
  expect(resumed.got).toEqual(range(6, 456));
  expect(live.got).toEqual(range(451, 456));
  expect(confirmedOnly.got).toEqual([452n, 454n, 456n]);
});

it('a slow subscriber leaves the cursor, catches up after its buffer drained, and misses nothing', async () => {
  const feed = new FakeFeed();
  const shared = new SharedFeed(feed.read, 0n, 60_000);
  const fast = new Recorder(0n);
  const slow = new Recorder(0n, '{}', true, 100);
  shared.add(fast);
  shared.add(slow);
  feed.append(3);
  shared.wake();
  await settle();
  feed.append(3); // arrives while the slow one is draining, off the cursor
  shared.wake();
  await settle();
  expect(slow.got).toEqual(range(1, 3)); // still draining; the fast one was not held back
  expect(fast.got).toEqual(range(1, 6));
  feed.append(2);
  shared.wake();
  await new Promise((resolve) => setTimeout(resolve, 150));
  shared.stop();
  expect(fast.got).toEqual(range(1, 8));
  expect(slow.got).toEqual(range(1, 8));
});

it('a subscriber that joins ahead of the cursor gets only the changes after its own position', async () => {
  const feed = new FakeFeed();
  feed.append(5);
  const shared = new SharedFeed(feed.read, 2n, 60_000); // the cursor is behind: changes 3..5 unread
  const behind = new Recorder(2n);
  shared.add(behind);
  const ahead = new Recorder(4n);
  shared.add(ahead);
  await settle();
  shared.stop();
  expect(behind.got).toEqual(range(3, 5));
  expect(ahead.got).toEqual([5n]);
});

it('a subscriber behind the cursor with no rows in between joins after one read, not one per wake', async () => {
  const feed = new FakeFeed();
  feed.append(5);
  feed.skipTo(10n); // checkpoint 10: positions 6..10 were other tenants' events
  const shared = new SharedFeed(feed.read, 10n, 60_000, Infinity); // opened at checkpoint 10
  const first = new Recorder(10n);
  shared.add(first);
  const opened = new Recorder(7n); // loaded checkpoint 7 before the projector moved on
  shared.add(opened);
  await settle();
  feed.reads = 0;
  for (let poll = 0; poll < 3; poll++) {
    shared.wake(); // idle polls: nothing new
    await settle();
  }
  for (let batch = 0; batch < 5; batch++) {
    feed.append(1);
    shared.wake();
    await settle();
  }
  shared.stop();
  expect(feed.reads).toBe(8); // one per wake
  expect(opened.got).toEqual(range(11, 15));
  expect(first.got).toEqual(range(11, 15));
});

it('hands a page to many subscribers in slices, letting other work (a claim) run between them', async () => {
  const { feed, shared, live } = await liveFeed(1_000);
  feed.append(3);
  shared.wake();
  // Work queued by I/O while the page is handed out: it must not wait for all 1 000 writes.
  let writtenWhenOtherWorkRan = -1;
  const sliceWatch = setInterval(() => {
    const written = live.filter((s) => s.got.length > 0).length;
    if (written > 0 && writtenWhenOtherWorkRan < 0) writtenWhenOtherWorkRan = written;
  }, 0);
  await settle();
  clearInterval(sliceWatch);
  shared.stop();
  for (const s of live) expect(s.got).toEqual(range(1, 3));
  expect(writtenWhenOtherWorkRan).toBeGreaterThan(0);
  expect(writtenWhenOtherWorkRan).toBeLessThan(1_000);
});

it('a subscriber that arrives while a page is handed out misses no change and gets none twice', async () => {
  const { feed, shared, live } = await liveFeed(1_000);
  feed.append(3);
  shared.wake();
  const late: Recorder[] = [];
  const arrivals = setInterval(() => {
    const s = new Recorder(0n); // loaded the read model before these 3 changes
    late.push(s);
    shared.add(s);
  }, 0);
  await settle();
  clearInterval(arrivals);
  feed.append(2);
  shared.wake();
  await settle();
  shared.stop();
  expect(late.length).toBeGreaterThan(0);
  for (const s of [...live, ...late]) expect(s.got).toEqual(range(1, 5));
});
