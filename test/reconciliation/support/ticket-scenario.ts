import type { TicketSystem } from '../../../demo/ticket-system.js';
import type { LedgerClient } from '../../support/http-client.js';

/** The action and source of the scenario's operations. */
export const TENANT = 'acme';
export const ACTION = 'ticket.create';
export const key = (order: number) => ({
  tenant: TENANT,
  source: 'shop',
  action: ACTION,
  subject: `order:${order}`,
});
const STEP = 'create-ticket';

async function createTicket(tickets: TicketSystem, order: number, title: string, idempotencyKey?: string) {
  const res = await fetch(`${tickets.url}/tickets`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify({ externalRef: `order:${order}`, title }),
  });
  if (res.status !== 201) throw new Error(`ticket create: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

/** Claims `order` and starts its step; returns the id and the provider idempotency key. */
async function claimAndStart(c: LedgerClient, order: number) {
  const claim = await c.claim(key(order), { title: `Order ${order}` }, { leaseMs: 60_000, workerId: 'w1' });
  if (claim.status !== 201) throw new Error(`claim ${order}: ${claim.status} ${JSON.stringify(claim.body)}`);
  const id = claim.body.operationId as string;
  const step = await c.op(id, `steps/${STEP}/start`, { fencingToken: 1 });
  return { id, pik: step.body.providerIdempotencyKey as string };
}

/** What the scenario left behind: operation ids and ticket ids by role. */
export interface Scenario {
  readonly ids: Record<'matched' | 'edited' | 'unknown' | 'rogue' | 'lost' | 'inProgress', string>;
  readonly tickets: Record<'unknown' | 'rogueFirst' | 'rogueSecond' | 'orphan', string>;
}

/**
 * Drives a worker over the ledger's HTTP API against the demo's ticket system:
 * order 1 confirmed (matched); order 7 confirmed, its ticket edited at the destination (fields
 * differ); order 2 saved then timed out (unknown); order 3 confirmed plus a rogue second ticket
 * created without the ledger (second effect); order 4 confirmed, its ticket lost; order 6
 * claimed, never confirmed; a ticket for order 99 nobody claimed (orphan). Order 5 is a source
 * intent that was never delivered (only in the source file).
 */
export async function runTicketScenario(c: LedgerClient, tickets: TicketSystem): Promise<Scenario> {
  const confirmWith = async (order: number, title = `Order ${order}`) => {
    const { id, pik } = await claimAndStart(c, order);
    const ticket = await createTicket(tickets, order, title, pik);
    const ok = await c.op(id, 'confirm', { fencingToken: 1, destinationRef: ticket });
    if (ok.status !== 200) throw new Error(`confirm ${order}: ${ok.status}`);
    return { id, ticket };
  };
  const matched = await confirmWith(1);
  const edited = await confirmWith(7, 'Order 7 (edited by hand)');
  const unknown = await claimAndStart(c, 2);
  const unknownTicket = await createTicket(tickets, 2, 'Order 2', unknown.pik);
  const u = await c.op(unknown.id, 'unknown', { fencingToken: 1, reason: 'timeout after 10 s' });
  if (u.status !== 200) throw new Error(`unknown: ${u.status}`);
  const rogue = await confirmWith(3);
  const rogueSecond = await createTicket(tickets, 3, 'Order 3'); // a re-run that bypassed the ledger
  const lost = await confirmWith(4);
  const del = await fetch(`${tickets.url}/tickets/${lost.ticket}`, { method: 'DELETE' });
  if (del.status !== 204) throw new Error(`delete: ${del.status}`);
  const inProgress = await claimAndStart(c, 6);
  const orphan = await createTicket(tickets, 99, 'made by hand');
  return {
    ids: {
      matched: matched.id,
      edited: edited.id,
      unknown: unknown.id,
      rogue: rogue.id,
      lost: lost.id,
      inProgress: inProgress.id,
    },
    tickets: { unknown: unknownTicket, rogueFirst: rogue.ticket, rogueSecond, orphan },
  };
}

/** The ticket system's export, as CSV or NDJSON text. */
export async function exportTickets(tickets: TicketSystem, format: 'csv' | 'ndjson'): Promise<string> {
  return (await fetch(`${tickets.url}/tickets/export?format=${format}`)).text();
}

/** Source intents: orders 1–7 (order 5 never reached the ledger), as NDJSON. */
export const SOURCE_NDJSON =
  [1, 2, 3, 4, 5, 6, 7].map((order) => JSON.stringify({ order })).join('\n') + '\n';
