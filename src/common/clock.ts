/** The server's clock. Leases are judged on it only, never on the caller's (DESIGN.md). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** DI token of the {@link Clock}. */
export const CLOCK = Symbol('CLOCK');

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };
