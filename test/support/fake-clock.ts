import type { Clock } from '../../src/common/clock.js';

/** A clock the test moves by hand, so lease expiry needs no sleeping. Epoch ms. */
export class FakeClock implements Clock {
  constructor(private t: number = Date.parse('2026-01-01T00:00:00Z')) {}
  now(): number {
    return this.t;
  }
  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    this.t += ms;
  }
}
