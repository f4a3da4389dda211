import type { StoredChange } from '../core/read-model.js';

/**
 * What a {@link SharedFeed} needs of one subscriber (an SSE session): where it stands, what it
 * wants and how to hand it bytes.
 */
export interface FeedSubscriber {
  /** Position of the last change passed to it (sent, or skipped by its filter). */
  readonly after: bigint;
  readonly closed: boolean;
  /** Equal for subscribers with equal filters, so one text serves them all. */
  readonly filterKey: string;
  /** Whether its filter lets `change` through. */
  accepts(change: StoredChange): boolean;
  /**
   * Writes `chunk` (whole SSE blocks as UTF-8, possibly empty) and moves {@link after} to
   * `through`. The same Buffer is handed to every subscriber with the same filter: never modify it.
   * @returns false when the client still held more than its bound of earlier writes (wait for
   *   {@link drained}).
   */
  write(chunk: Buffer, through: bigint): boolean;
  /** Resolves once the client took its buffered text (or went away). */
  drained(): Promise<void>;
}
