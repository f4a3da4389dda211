import { hashedUnit } from '../seeded-random.js';

/**
 * The points at which a worker process stops and asks the parent whether to go on — the places
 * where a crash leaves a different trace in the ledger and at the destination:
 * - `before-claim`: the delivery was taken from the queue, nothing recorded anywhere;
 * - `after-claim`: the ledger holds a lease, no step started (the sweeper will release it);
 * - `after-step-start`: a step started, no ticket (the sweeper marks it Unknown; not found);
 * - `after-ticket-created`: the ticket exists, the ledger does not know (Unknown; found);
 * - `after-confirm`: confirmed, but the delivery was never acked (redelivered, replayed).
 */
export const KILL_POINTS = [
  'before-claim',
  'after-claim',
  'after-step-start',
  'after-ticket-created',
  'after-confirm',
] as const;

/** One of {@link KILL_POINTS}. */
export type KillPoint = (typeof KILL_POINTS)[number];

/** How often and where workers are killed. */
export interface KillPlanOptions {
  readonly seed: number;
  /** Probability that one delivery attempt of a message ends in a SIGKILL (at a random point). */
  readonly killRate: number;
  /**
   * The first arrivals at each point are killed until the point has this many kills, so a run
   * always exercises every point, `after-ticket-created` (recovery by evidence) included.
   */
  readonly minKillsPerPoint: number;
  /** A message is killed at most this many times; its later deliveries run through. */
  readonly maxKillsPerMessage: number;
  /** No more kills once this many happened. */
  readonly maxKills: number;
}

/** A worker reached a kill point while handling this delivery attempt of a message. */
export interface Arrival {
  readonly point: KillPoint;
  readonly tag: number;
  /** Which delivery of the message this is (1 = first). */
  readonly delivery: number;
}

/**
 * Decides, each time a worker reports a kill point, whether the parent SIGKILLs it there. The
 * random part depends only on the seed, the message and its delivery number (not on timing):
 * each delivery attempt dies with probability `killRate`, at a point drawn uniformly. On top,
 * the first arrivals at a point are killed until it has `minKillsPerPoint` kills.
 */
export class KillPlanner {
  private readonly byPoint = new Map<KillPoint, number>(KILL_POINTS.map((p) => [p, 0]));
  private readonly byMessage = new Map<number, number>();
  private total = 0;

  constructor(private readonly options: KillPlanOptions) {}

  /** Whether to kill at this arrival; counts the kill when the answer is yes. */
  shouldKill(arrival: Arrival): boolean {
    const o = this.options;
    const messageKills = this.byMessage.get(arrival.tag) ?? 0;
    if (this.total >= o.maxKills || messageKills >= o.maxKillsPerMessage) return false;
    const attempt = `${arrival.tag}#${arrival.delivery}`;
    const chosen =
      hashedUnit(o.seed, `kill:${attempt}`) < o.killRate &&
      KILL_POINTS[Math.floor(hashedUnit(o.seed, `point:${attempt}`) * KILL_POINTS.length)] === arrival.point;
    const forced = this.byPoint.get(arrival.point)! < o.minKillsPerPoint;
    if (!chosen && !forced) return false;
    this.byPoint.set(arrival.point, this.byPoint.get(arrival.point)! + 1);
    this.byMessage.set(arrival.tag, messageKills + 1);
    this.total++;
    return true;
  }

  /** Kills so far, by point (every point listed). */
  killsByPoint(): Record<KillPoint, number> {
    return Object.fromEntries(this.byPoint) as Record<KillPoint, number>;
  }

  /** Kills so far. */
  get kills(): number {
    return this.total;
  }
}
