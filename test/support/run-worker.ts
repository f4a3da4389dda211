import type { Destination } from './destination.js';
import type { LedgerClient, TestResponse } from './http-client.js';

/** What one worker run did. */
export interface WorkerRun {
  readonly claim: TestResponse;
  readonly effect: boolean;
}

/**
 * The canonical worker: claim; if acquired, start step `create`, make the destination call with
 * the provider idempotency key, confirm with the destination reference. Anything else (replay,
 * in progress, conflict) makes no destination call.
 */
export async function runWorker(
  client: LedgerClient,
  destination: Destination,
  key: Record<string, unknown>,
  payload: unknown,
  externalRef: string,
  extra: Record<string, unknown> = {},
): Promise<WorkerRun> {
  const claim = await client.claim(key, payload, extra);
  if (claim.status !== 201) return { claim, effect: false };
  const { operationId, fencingToken } = claim.body;
  const started = await client.op(operationId, 'steps/create/start', { fencingToken });
  if (started.status !== 200) throw new Error(`step start ${started.status} ${JSON.stringify(started.body)}`);
  const ref = destination.create(externalRef, started.body.providerIdempotencyKey);
  const confirmed = await client.op(operationId, 'confirm', { fencingToken, destinationRef: ref });
  if (confirmed.status !== 200)
    throw new Error(`confirm ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  return { claim, effect: true };
}
