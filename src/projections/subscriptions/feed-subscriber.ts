import type { StoredChange } from '../core/read-model.js';

/**
 * What a {@link SharedFeed} needs of one subscriber (an SSE session): where it stands, what it
 * wants and how to hand it text.
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
   * Writes `text` (whole SSE blocks, possibly empty) and moves {@link after} to `through`.
   * @returns false when the client's unsent buffer is over its bound (wait for {@link drained}).
   */
  write(text: string, through: bigint): boolean;
  /** Resolves once the client took its buffered text (or went away). */
  drained(): Promise<void>;
}
