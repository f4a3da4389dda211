import type { Pool } from 'undici';
import type { LoadOp } from '../harness.js';
import type { BenchKey, Workload } from '../workload.js';
import { sdkOneStepOp } from './sdk-one-step.js';
import type { OpKind, ServerId } from './targets.js';

/** What one HTTP request answered. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Record<string, unknown> | null;
}

/** Where and as whom a target's operations run. */
export interface OpContext {
  readonly pool: Pool;
  /** The server's base URL, e.g. `http://127.0.0.1:41234` (the pool's origin). */
  readonly url: string;
  readonly server: ServerId;
  /** Ledger worker tokens; operation `i` uses token `i mod n` (empty for the baselines). */
  readonly tokens: readonly string[];
  readonly workload: Workload;
  /** Key family of new keys (unique per target). */
  readonly family: string;
  /** Completed keys that duplicate / replay operations repeat, from {@link seedOp}. */
  readonly dupKeys: number;
}

/** The step of the cycles and one-step jobs. */
const STEP = 'create';

/**
 * Lease of every benchmark claim, ms: the longest a policy allows by default, so no claim left in
 * progress (the new-key rows never confirm) expires and is swept while a later target is measured.
 */
const BENCH_LEASE_MS = 3_600_000;

/** POSTs `body` as JSON to `path` and reads the JSON answer (null when the body is not JSON). */
export async function post(
  pool: Pool,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    // Not JSON: keep null, the status tells.
  }
  return { status: res.statusCode, headers: res.headers, body: json };
}

/** GETs `path` as JSON. */
export async function get(pool: Pool, path: string, headers: Record<string, string>): Promise<Answer> {
  const res = await pool.request({ method: 'GET', path, headers });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: (await res.body.json()) as Record<string, unknown>,
  };
}

/** Throws unless `answer` has `status`; the message carries the problem type or body. */
export function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status === status) return;
  const type = typeof answer.body?.['type'] === 'string' ? String(answer.body['type']).split('/').pop() : '';
  const detail = typeof answer.body?.['detail'] === 'string' ? ` ${String(answer.body['detail'])}` : '';
  throw new Error(`${what}: expected ${status}, got ${answer.status} ${type}${detail}`.slice(0, 300));
}

const bearer = (ctx: OpContext, i: number) => ({
  authorization: `Bearer ${ctx.tokens[i % ctx.tokens.length]}`,
});
/** Key family of the completed keys that the duplicate / replay target of `server` repeats. */
export const duplicateFamilyOf = (server: ServerId) => `dup-${server}`;
const dupFamily = (ctx: OpContext) => duplicateFamilyOf(ctx.server);

async function ledgerClaim(ctx: OpContext, i: number, family: string, extra: object = {}) {
  const key = ctx.workload.freshKey(family);
  const answer = await post(
    ctx.pool,
    '/v1/claims',
    { key, payload: ctx.workload.payload(key), leaseMs: BENCH_LEASE_MS, ...extra },
    bearer(ctx, i),
  );
  expectStatus(answer, 201, 'claim');
  const { operationId, fencingToken } = answer.body as { operationId: string; fencingToken: number };
  return { key, operationId, fencingToken };
}

/** Claim → step start → confirm of a new key (3 requests). */
async function ledgerCycle(ctx: OpContext, i: number, family: string): Promise<void> {
  const { key, operationId, fencingToken } = await ledgerClaim(ctx, i, family);
  const base = `/v1/operations/${operationId}`;
  expectStatus(
    await post(ctx.pool, `${base}/steps/${STEP}/start`, { fencingToken }, bearer(ctx, i)),
    200,
    'step start',
  );
  const confirm = { fencingToken, destinationRef: `INV-${key.subject}` };
  expectStatus(await post(ctx.pool, `${base}/confirm`, confirm, bearer(ctx, i)), 200, 'confirm');
}

/**
 * The one-step job (the round-trip shortcuts): a claim naming `startStep`, then a confirm
 * naming `completeStep` (2 requests). Returns the operation id, for {@link probeOneStep}.
 */
export async function ledgerOneStep(ctx: OpContext, i: number): Promise<string> {
  const { key, operationId, fencingToken } = await ledgerClaim(ctx, i, ctx.family, { startStep: STEP });
  const confirm = {
    fencingToken,
    destinationRef: `INV-${key.subject}`,
    completeStep: { name: STEP, outputs: { ok: true } },
  };
  expectStatus(
    await post(ctx.pool, `/v1/operations/${operationId}/confirm`, confirm, bearer(ctx, i)),
    200,
    'confirm',
  );
  return operationId;
}

async function handRolledClaim(ctx: OpContext, family: string, index: number | null, status: number) {
  const key = index === null ? ctx.workload.freshKey(family) : ctx.workload.key(family, index);
  const answer = await post(ctx.pool, '/claims', { key, payload: ctx.workload.payload(key) });
  expectStatus(answer, status, 'hand-rolled claim');
  return key;
}

/** A claim behind the @node-idempotency interceptor; its Idempotency-Key is the key's subject. */
async function niClaim(ctx: OpContext, key: BenchKey, replay: boolean): Promise<void> {
  const headers = { 'idempotency-key': `${ctx.workload.runTag}-${key.subject}` };
  const answer = await post(ctx.pool, '/claims', { key, payload: ctx.workload.payload(key) }, headers);
  expectStatus(answer, 201, 'node-idempotency claim');
  if ((answer.headers['idempotent-replayed'] === 'true') !== replay) {
    throw new Error(`node-idempotency claim: expected ${replay ? 'a' : 'no'} replay`);
  }
}

/** One operation of `kind`; it throws when the server's answer is not the expected one. */
export function targetOp(kind: OpKind, ctx: OpContext): LoadOp {
  switch (kind) {
    case 'bare':
      return async () => {
        const key = ctx.workload.freshKey(ctx.family);
        expectStatus(
          await post(ctx.pool, '/claims', { key, payload: ctx.workload.payload(key) }),
          201,
          'bare',
        );
      };
    case 'hand-rolled-new':
      return async () => void (await handRolledClaim(ctx, ctx.family, null, 201));
    case 'hand-rolled-duplicate':
      return async (i) => void (await handRolledClaim(ctx, dupFamily(ctx), i % ctx.dupKeys, 200));
    case 'hand-rolled-cycle':
      return async () => {
        const key = await handRolledClaim(ctx, ctx.family, null, 201);
        const done = await post(ctx.pool, '/claims/complete', {
          key,
          response: { destinationRef: `INV-${key.subject}` },
        });
        expectStatus(done, 200, 'hand-rolled complete');
      };
    case 'ni-new':
      return async () => niClaim(ctx, ctx.workload.freshKey(ctx.family), false);
    case 'ni-replay':
      return async (i) => niClaim(ctx, ctx.workload.key(dupFamily(ctx), i % ctx.dupKeys), true);
    case 'ledger-new':
      return async (i) => void (await ledgerClaim(ctx, i, ctx.family));
    case 'ledger-duplicate':
      return async (i) => {
        const key = ctx.workload.key(dupFamily(ctx), i % ctx.dupKeys);
        const answer = await post(
          ctx.pool,
          '/v1/claims',
          { key, payload: ctx.workload.payload(key) },
          bearer(ctx, i),
        );
        expectStatus(answer, 200, 'duplicate claim');
        if (answer.body?.['replayed'] !== true) throw new Error('duplicate claim: not a replay');
      };
    case 'ledger-cycle':
      return async (i) => ledgerCycle(ctx, i, ctx.family);
    case 'ledger-one-step':
      return async (i) => void (await ledgerOneStep(ctx, i));
    case 'ledger-sdk-one-step':
      return sdkOneStepOp(ctx, 'default');
    case 'ledger-sdk-fetch-one-step':
      return sdkOneStepOp(ctx, 'fetch');
    case 'ledger-sdk-batch-one-step':
      return sdkOneStepOp(ctx, 'batch');
  }
}

/**
 * The operation that completes duplicate key `index` of `ctx.server` (for the duplicate and
 * replay targets), or null when the server has no such target.
 */
export function seedOp(ctx: OpContext): LoadOp | null {
  const family = dupFamily(ctx);
  switch (ctx.server) {
    case 'hand-rolled':
    case 'hand-rolled-express':
      return async (index) => {
        const key = await handRolledClaim(ctx, family, index, 201);
        expectStatus(
          await post(ctx.pool, '/claims/complete', { key, response: { destinationRef: 'seed' } }),
          200,
          'seed',
        );
      };
    case 'node-idempotency':
    case 'node-idempotency-express':
      return async (index) => niClaim(ctx, ctx.workload.key(family, index), false);
    case 'bare':
    case 'bare-fastify':
      return null;
    default:
      return async (index) => {
        const key = ctx.workload.key(family, index);
        const claim = await post(
          ctx.pool,
          '/v1/claims',
          { key, payload: ctx.workload.payload(key) },
          bearer(ctx, index),
        );
        expectStatus(claim, 201, 'seed claim');
        const { operationId, fencingToken } = claim.body as { operationId: string; fencingToken: number };
        const base = `/v1/operations/${operationId}`;
        expectStatus(
          await post(ctx.pool, `${base}/steps/${STEP}/start`, { fencingToken }, bearer(ctx, index)),
          200,
          'seed step',
        );
        const confirm = { fencingToken, destinationRef: `INV-${key.subject}` };
        expectStatus(
          await post(ctx.pool, `${base}/confirm`, confirm, bearer(ctx, index)),
          200,
          'seed confirm',
        );
      };
  }
}
