import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { NO_STREAM, type EventStore } from '../src/event-store/event-store.port.js';
import {
  decide,
  evolve,
  initialState,
  operationIdFor,
  operationStreamName,
  payloadFingerprint,
  type DecisionEvent,
  type OperationKey,
} from '../src/ledger/index.js';

/** Tenant and action of the reconciliation benchmark's operations. */
export const RECON_TENANT = 'bench-gmbh';
export const RECON_ACTION = 'invoice.create';

/** Appends claim + confirm of operation `i` (decided by the domain on an empty stream). */
async function seedOne(store: EventStore, i: number, now: number): Promise<string> {
  const key: OperationKey = {
    tenant: RECON_TENANT,
    source: 'erp',
    action: RECON_ACTION,
    subject: `order:${i}`,
    revision: 1,
  };
  const operationId = operationIdFor(key);
  const payload = { order: i, total: `${i}.00` };
  const claim = decide(
    {
      type: 'ClaimOperation',
      now,
      key,
      operationId,
      payload,
      fingerprint: payloadFingerprint(payload),
      leaseMs: 30_000,
      workerId: 'bench',
    },
    initialState,
  );
  const claimed = claim.events.reduce(evolve, initialState);
  const confirm = decide(
    { type: 'ConfirmOperation', now, fencingToken: 1, destinationRef: `INV-${i}`, outputs: null },
    claimed,
  );
  const events: DecisionEvent[] = [...claim.events, ...confirm.events];
  await store.append(
    operationStreamName(key),
    events.map((e) => ({
      id: randomUUID(),
      type: e.type,
      data: e.data as never,
      metadata: { correlationId: 'bench' },
    })),
    NO_STREAM,
    { streamId: operationId },
  );
  return operationId;
}

/**
 * Records `count` confirmed operations (`order:0` … ) straight through `store`, 32 appends at a
 * time, and resolves to their ids in order.
 */
export async function seedConfirmedOperations(store: EventStore, count: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  for (let next = 0; next < count;) {
    const batch = Array.from({ length: Math.min(32, count - next) }, (_, k) => next + k);
    const seeded = await Promise.all(batch.map((i) => seedOne(store, i, Date.now())));
    batch.forEach((i, k) => (ids[i] = seeded[k]!));
    next += batch.length;
  }
  return ids;
}

/**
 * The destination export as a stream of CSV chunks (nothing held beyond one chunk), `rows` rows
 * after the header: one record per operation of `ids` except 0.5 % lost (`i % 200 === 7`), a
 * second record for 0.1 % (`i % 1000 === 3`, second effects), orphans for the rest.
 */
export function destinationCsv(ids: readonly string[], rows: number): Readable {
  const n = ids.length;
  return Readable.from(
    (function* () {
      yield 'id,reference\n';
      let written = 0;
      let chunk = '';
      const push = (line: string) => {
        chunk += line;
        written++;
      };
      for (let i = 0; i < n && written < rows; i++) {
        if (i % 200 === 7) continue; // 0.5 % lost at the destination
        push(`INV-${i},${ids[i]}\n`);
        if (i % 1000 === 3 && written < rows) push(`INV-${i}-B,${ids[i]}\n`); // 0.1 % second effects
        if (chunk.length > 64_000) {
          yield chunk;
          chunk = '';
        }
      }
      for (let j = 0; written < rows; j++) {
        push(`MAN-${j},${randomUUID()}\n`); // orphans: made outside the ledger
        if (chunk.length > 64_000) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    })(),
  );
}
