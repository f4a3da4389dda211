import { LedgerClient } from '@operation-ledger/client';
import type { LoadOp } from '../harness.js';
import type { OpContext } from './target-ops.js';

/** The step of the one-step job (the same name as the raw HTTP targets use). */
const STEP = 'create';

/**
 * How the SDK sends its requests: `default` is what a worker gets without options (undici's
 * `Dispatcher.request` on Node), `fetch` the global `fetch` given as the `fetch` option (the
 * SDK's transport before), so one run compares both; `batch` is the default transport in ONE
 * client with `batchClaims` (claims made while one is in flight leave as one batch request).
 */
export type SdkTransport = 'default' | 'fetch' | 'batch';

/**
 * The one-step job as a worker writes it with the SDK (`@operation-ledger/client`, packages/client/README.md
 * "Round-trip shortcuts"): `runOnce` of a new key with `firstStep`, a job of one `op.step` that
 * returns the destination's reference. Where the ledger has the shortcuts that is two requests —
 * the claim starts the step, the confirm completes it — over the SDK's own connections (not
 * `ctx.pool`: the transport is what the row measures). Operation `i` uses token `i mod n` (one
 * SDK client per token, all in this one process, as a worker process shares one); the `batch`
 * row uses one client (a worker process with one key), so its concurrent claims can batch.
 * @throws when the job was not executed (e.g. a refusal or `JobFailedError`).
 */
export function sdkOneStepOp(ctx: OpContext, transport: SdkTransport): LoadOp {
  const fetchOption =
    transport === 'fetch' ? { fetch: (i: string, init: RequestInit) => fetch(i, init) } : {};
  const clients =
    transport === 'batch'
      ? [new LedgerClient({ baseUrl: ctx.url, token: ctx.tokens[0], batchClaims: true })]
      : ctx.tokens.map((token) => new LedgerClient({ baseUrl: ctx.url, token, ...fetchOption }));
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
