import { ticketDraft } from './github-intents.js';
import type { Delivery, Intent } from './intent.js';
import { randomHex, randomInt, seededRandom, shuffled, type Random } from './seeded-random.js';

/** How deliveries are generated from intents. */
export interface DeliveryPlanOptions {
  readonly seed: number;
  /** Deliberate conflicts: this many intents get one extra delivery with an edited payload. */
  readonly conflicts: number;
  /** Each intent is delivered 1..maxCopies times (default 3), like webhook redeliveries. */
  readonly maxCopies?: number;
  /** Share of multi-copy intents whose copies arrive at the same moment (default 0.35). */
  readonly burstRate?: number;
}

/** The deliveries of a run, in arrival order. */
export interface DeliveryPlan {
  /**
   * Arrival order. The deliveries of one batch arrive at the same moment and are handled
   * concurrently (a redelivery racing the original); batches are spread over the workers.
   */
  readonly batches: readonly (readonly Delivery[])[];
  /** Total deliveries, conflicts included. */
  readonly deliveries: number;
  /** The distinct intents delivered. */
  readonly intents: readonly Intent[];
  /** The edited variants injected as conflicts (same key as an intent, different payload). */
  readonly injectedConflicts: readonly Intent[];
  /** Batches of two or more concurrent deliveries. */
  readonly concurrentBursts: number;
}

/**
 * Builds a seeded, shuffled delivery plan: every intent 1–3 times (some copies arriving together),
 * plus `conflicts` edited deliveries of randomly chosen intents. Deterministic for a given seed.
 */
export function planDeliveries(intents: readonly Intent[], options: DeliveryPlanOptions): DeliveryPlan {
  const random = seededRandom(options.seed);
  const maxCopies = options.maxCopies ?? 3;
  const burstRate = options.burstRate ?? 0.35;
  const batches: Delivery[][] = [];
  let concurrentBursts = 0;
  for (const intent of intents) {
    const copies = randomInt(random, 1, maxCopies);
    const deliveries = Array.from({ length: copies }, (_, i) => delivery(random, intent, i + 1, false));
    if (copies > 1 && random() < burstRate) {
      batches.push(deliveries);
      concurrentBursts++;
    } else {
      for (const d of deliveries) batches.push([d]);
    }
  }
  const conflictCount = Math.max(0, Math.min(options.conflicts, intents.length));
  const injectedConflicts = shuffled(random, intents).slice(0, conflictCount).map(editedIntent);
  for (const edited of injectedConflicts) batches.push([delivery(random, edited, 1, true)]);
  return {
    batches: shuffled(random, batches),
    deliveries: batches.reduce((n, b) => n + b.length, 0),
    intents,
    injectedConflicts,
    concurrentBursts,
  };
}

/**
 * The same intent with one business field edited — what a sender does when it "fixes" an event
 * after the fact and replays it under the same identity. The ledger must refuse it (422).
 */
export function editedIntent(intent: Intent): Intent {
  const field = intent.key.action === 'comment.mirror' ? 'commentBody' : 'title';
  const payload = { ...intent.payload, [field]: `${String(intent.payload[field] ?? '')} (edited)` };
  return { ...intent, payload, ticket: ticketDraft(intent.key, payload) };
}

function delivery(random: Random, intent: Intent, copy: number, injectedConflict: boolean): Delivery {
  const hex = randomHex(random, 16);
  const deliveryId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { deliveryId, intent, copy, injectedConflict };
}
