import type { Backlog, EventStore } from '../../event-store/event-store.port.js';

/** How far a read model is behind the event store: the {@link Backlog} of its checkpoint. */
export type Lag = Backlog;

/** Measures the {@link Lag} of a checkpoint. */
export interface LagProbe {
  measure(checkpoint: bigint): Promise<Lag>;
}

/** Events counted at most per measurement. */
export const LAG_COUNT_CAP = 100_000;

/**
 * {@link LagProbe} through the event store port: {@link EventStore.backlogAfter} where the store
 * has it, else up to `readAheadCap` events read with `readAll`.
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
