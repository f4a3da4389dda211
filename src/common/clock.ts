/**
 * The server's clock. Leases are judged on it only, never on the caller's (docs/domain.md "Leases and
 * fencing tokens"). Injected everywhere as {@link CLOCK}; a command reads it once.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** DI token of the {@link Clock}. */
export const CLOCK = Symbol('CLOCK');

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };
