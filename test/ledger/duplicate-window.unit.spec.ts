import {
  decideDuplicateAudit,
  duplicateCount,
  flushDuplicateWindow,
  type AuditEvent,
  type DuplicateWindow,
} from '../../src/ledger/index.js';
import { duplicateClaim } from './support/duplicate-claim.js';

const T0 = Date.parse('2026-12-04T10:00:00.000Z');
const dup = duplicateClaim;

/** Runs duplicates through the window in order; the records decided, the window after. */
function run(events: readonly AuditEvent[][], times: readonly number[], windowMs = 1000) {
  let window: DuplicateWindow | undefined;
  const recorded: AuditEvent[] = [];
  events.forEach((audit, i) => {
    const d = decideDuplicateAudit(window, audit, times[i]!, windowMs);
    recorded.push(...d.ended, ...d.record);
    window = d.window;
  });
  return { recorded, window: window! };
}

describe('duplicate window (coalesced audit of duplicate claims)', () => {
  it('records the first duplicate of a window at once', () => {
    const { recorded, window } = run([[dup(T0)]], [T0]);
    expect(recorded).toEqual([dup(T0)]);
    expect(window).toEqual({ until: T0 + 1000, opener: dup(T0), pending: null });
  });

  it('counts the next ones of the window and records them as one event when it is flushed', () => {
    const { recorded, window } = run(
      [[dup(T0)], [dup(T0 + 10, 'replayed', 'w2')], [dup(T0 + 20)], [dup(T0 + 999)]],
      [T0, T0 + 10, T0 + 20, T0 + 999],
    );
    expect(recorded).toEqual([dup(T0)]);
    const flushed = flushDuplicateWindow(window)!;
    expect(flushed.type).toBe('DuplicateClaimPrevented');
    expect(flushed.data).toMatchObject({
      workerId: 'w2',
      answer: 'replayed',
      count: 3,
      firstAt: new Date(T0 + 10).toISOString(),
      lastAt: new Date(T0 + 999).toISOString(),
    });
    expect(duplicateCount(flushed.data)).toBe(3);
  });

  it('a duplicate after the window records the pending count and opens the next window', () => {
    const { recorded, window } = run([[dup(T0)], [dup(T0 + 1)], [dup(T0 + 1000)]], [T0, T0 + 1, T0 + 1000]);
    expect(recorded.map((e) => duplicateCount(e.data as { count?: number }))).toEqual([1, 1, 1]);
    expect(recorded[1]!.data).toMatchObject({ count: 1, firstAt: new Date(T0 + 1).toISOString() });
    expect(recorded[2]).toEqual(dup(T0 + 1000));
    expect(window).toEqual({ until: T0 + 2000, opener: dup(T0 + 1000), pending: null });
  });

  it('never merges different answers: another answer ends the window early', () => {
    const { recorded, window } = run(
      [[dup(T0, 'in_progress')], [dup(T0 + 1, 'in_progress')], [dup(T0 + 2, 'replayed')]],
      [T0, T0 + 1, T0 + 2],
    );
    expect(
      recorded.map((e) => [
        (e.data as { answer: string }).answer,
        duplicateCount(e.data as { count?: number }),
      ]),
    ).toEqual([
      ['in_progress', 1],
      ['in_progress', 1],
      ['replayed', 1],
    ]);
    expect(flushDuplicateWindow(window)).toBeNull();
  });

  it('a duplicate unlike the one that opened the window is recorded at once and opens its own', () => {
    const { recorded, window } = run([[dup(T0, 'in_progress')], [dup(T0 + 5, 'replayed')]], [T0, T0 + 5]);
    expect(recorded).toEqual([dup(T0, 'in_progress'), dup(T0 + 5, 'replayed')]);
    expect(window).toEqual({ until: T0 + 1005, opener: dup(T0 + 5, 'replayed'), pending: null });
  });

  it('keeps every duplicate counted: records plus the flush add up to the duplicates answered', () => {
    const times = Array.from({ length: 50 }, (_, i) => T0 + i * 97);
    const { recorded, window } = run(
      times.map((t) => [dup(t)]),
      times,
    );
    const flushed = flushDuplicateWindow(window);
    const total = [...recorded, ...(flushed ? [flushed] : [])].reduce(
      (n, e) => n + duplicateCount(e.data as { count?: number }),
      0,
    );
    expect(total).toBe(50);
    expect(recorded.length).toBeLessThan(15);
  });

  it('records payload conflicts and every duplicate as decided when the window is 0', () => {
    const conflict: AuditEvent = {
      type: 'PayloadConflictDetected',
      data: { ...dup(T0).data, existingFingerprint: 'f', incomingFingerprint: 'g', incomingPayload: {} },
    };
    const { recorded, window } = run([[dup(T0)], [conflict, dup(T0)]], [T0, T0], 0);
    expect(recorded).toEqual([dup(T0), conflict, dup(T0)]);
    expect(flushDuplicateWindow(window)).toBeNull();
  });

  it('does not mutate the window it is given', () => {
    const window: DuplicateWindow = Object.freeze({ until: T0 + 1000, opener: dup(T0), pending: null });
    decideDuplicateAudit(window, [dup(T0 + 1)], T0 + 1, 1000);
    expect(window).toEqual({ until: T0 + 1000, opener: dup(T0), pending: null });
  });

  it('counts a record without a count as one duplicate', () => {
    expect(duplicateCount({})).toBe(1);
    expect(duplicateCount({ count: 0 })).toBe(1);
    expect(duplicateCount({ count: 7 })).toBe(7);
  });
});
