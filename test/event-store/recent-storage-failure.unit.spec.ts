import { RecentStorageFailure } from '../../src/event-store/postgres/recent-storage-failure.js';

const diskFull = Object.assign(new Error('could not extend file "base/5/16385": No space left on device'), {
  code: '53100',
});

describe('RecentStorageFailure (PostgreSQL readiness)', () => {
  let now = 0;
  const failures = () => new RecentStorageFailure(10_000, () => now);

  it('reports a disk-full error for the window after it, then clears by itself', () => {
    now = 1_000;
    const recent = failures();
    recent.note(diskFull);
    now = 3_000;
    expect(recent.problem()).toBe(
      'storage: disk full reported by PostgreSQL 2 s ago (could not extend file "base/5/16385": No space left on device)',
    );
    now = 11_001;
    expect(recent.problem()).toBeUndefined();
  });

  it('ignores errors that are not storage failures', () => {
    const recent = failures();
    recent.note(Object.assign(new Error('duplicate key'), { code: '23505' }));
    recent.note(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(recent.problem()).toBeUndefined();
  });

  it('names too many connections (53300) as such', () => {
    now = 0;
    const recent = failures();
    recent.note(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }));
    expect(recent.problem()).toMatch(/^storage: too many connections reported by PostgreSQL 0 s ago/);
  });
});
