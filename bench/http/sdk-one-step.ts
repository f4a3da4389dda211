import { LedgerClient, type FetchLike } from '@operation-ledger/client';
import { fetch as undiciFetch } from 'undici';
import type { LoadOp } from '../harness.js';
import type { OpContext } from './target-ops.js';

/** The step of the one-step job (the same name as the raw HTTP targets use). */
const STEP = 'create';

/** A fetch that sends every request through `ctx.pool` (its connections, its timeouts). */
function poolFetch(ctx: OpContext): FetchLike {
  return (input, init) =>
    undiciFetch(input, { ...(init as object), dispatcher: ctx.pool }) as unknown as Promise<Response>;
}

/**
 * The one-step job as a worker writes it with the SDK (`@operation-ledger/client`, README
 * "Round-trip shortcuts"): `runOnce` of a new key with `firstStep`, a job of one `op.step` that
 * returns the destination's reference. Where the ledger has the shortcuts that is two requests —
 * the claim starts the step, the confirm completes it — sent through `ctx.pool`. Operation `i`
 * uses token `i mod n` (one SDK client per token, shared by the target's clients, as a worker
 * process shares one). @throws when the job was not executed (e.g. a refusal or `JobFailedError`).
 */
export function sdkOneStepOp(ctx: OpContext): LoadOp {
  const clients = ctx.tokens.map(
    (token) => new LedgerClient({ baseUrl: ctx.url, token, fetch: poolFetch(ctx) }),
  );
  return async (i) => {
    const key = ctx.workload.freshKey(ctx.family);
    const result = await clients[i % clients.length]!.runOnce(
      key,
      ctx.workload.payload(key),
      async (op) => {
        const invoice = await op.step(STEP, (providerKey) => ({ id: `INV-${key.subject}`, providerKey }));
        return { destinationRef: invoice.id };
      },
      { firstStep: STEP },
    );
    if (result.status !== 'executed') throw new Error(`sdk one-step: ${result.status}, not executed`);
  };
}
