/**
 * The demo's vocabulary: an operation key (docs/api.md#operation-identity), a business intent derived
 * from a webhook, and one delivery of it. Transport details (delivery id, attempt) live on the
 * delivery, never in the payload, so redeliveries of one intent carry an identical payload.
 */

/** JSON values as sent to the ledger. */
export type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

/** Operation key as the HTTP contract spells it; `revision` defaults to 1 on the server. */
export interface OperationKey {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision?: number;
}

/** What the worker sends to the ticket system for an intent. */
export interface TicketDraft {
  /** The intent's stable reference at the destination: how recovery finds the ticket again. */
  readonly externalRef: string;
  readonly title: string;
  readonly body: string;
}

/** One business intent: "create a ticket for this GitHub event", keyed by business identity. */
export interface Intent {
  readonly key: OperationKey;
  /** Business fields only: what the ledger fingerprints. */
  readonly payload: { readonly [member: string]: Json };
  readonly ticket: TicketDraft;
  /** The webhook event name the intent came from (`issues`, `issue_comment`, …). */
  readonly event: string;
}

/** One webhook delivery of an intent, as a receiver would see it arrive. */
export interface Delivery {
  /** Transport id, like `X-GitHub-Delivery`; differs for every copy. */
  readonly deliveryId: string;
  readonly intent: Intent;
  /** 1 for the first copy of an intent, 2 and 3 for redeliveries. */
  readonly copy: number;
  /** True for a deliberately edited copy (same key, different payload): must be refused. */
  readonly injectedConflict: boolean;
}

/** A stable text form of a key, for maps and sets on the client side (not the ledger's canonical form). */
export function keyText(key: OperationKey): string {
  return JSON.stringify([key.tenant, key.source, key.action, key.subject, key.revision ?? 1]);
}
