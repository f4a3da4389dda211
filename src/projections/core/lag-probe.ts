import type { Backlog, EventStore } from '../../event-store/event-store.port.js';

/**
 * How far a read model is behind the event store: the {@link Backlog} of its checkpoint — `events`
 * committed after it (counted up to a cap; `capped` when there are more) and `seconds` since the
 * oldest of them was recorded (0 when none).
 */
export type Lag = Backlog;

/** Measures the {@link Lag} of a checkpoint. */
export interface LagProbe {
  measure(checkpoint: bigint): Promise<Lag>;
}

/** Events counted at most per measurement. */
export const LAG_COUNT_CAP = 100_000;

/**
 * {@link LagProbe} through the event store port: the store's {@link EventStore.backlogAfter}
 * where it has one (the SQL stores count in the database, up to `cap`), else reading up to
 * `readAheadCap` events after the checkpoint with `readAll` and ageing the oldest on this
 * process's clock.
 */
export class StoreLagProbe implements LagProbe {
  constructor(
    private readonly store: EventStore,
    private readonly cap = LAG_COUNT_CAP,
    private readonly readAheadCap = 10_000,
  ) {}

  async measure(checkpoint: bigint): Promise<Lag> {
    if (this.store.backlogAfter) return this.store.backlogAfter(checkpoint, this.cap);
    const events = await this.store.readAll(checkpoint, this.readAheadCap + 1);
    const oldest = events[0];
    return {
      events: Math.min(events.length, this.readAheadCap),
      capped: events.length > this.readAheadCap,
      seconds: oldest ? Math.max(0, (Date.now() - oldest.recordedAt.getTime()) / 1000) : 0,
    };
  }
}
