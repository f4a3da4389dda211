import { hash } from 'node:crypto';
import type { LedgerClient } from '../client.js';
import { JobFailedError, LedgerRequestError, LedgerUnavailableError } from '../errors.js';
import { canonicalKey, keyIssues } from '../key/operation-key.js';
import type { OperationKey } from '../types.js';
import { fingerprintInput } from './fingerprint-input.js';
import { answerFromOutputs, answerToOutputs, keptHeaders, type HttpAnswer } from './http-answer.js';
import { guardedContext, UNGUARDED, type IdempotencyContext } from './idempotency-context.js';
import { readIdempotencyKey } from './idempotency-key-header.js';
import {
  DEFAULT_KEPT_HEADERS,
  EXPIRY_HEADER,
  REPLAYED_HEADER,
  type IdempotencyOptions,
  type RequestFacts,
} from './idempotency-options.js';
import { KeyExpiry } from './key-expiry.js';
import { problemAnswer } from './problem-answer.js';
import { refusalAnswer } from './refusal-answer.js';
import { ReplayCache } from './replay-cache.js';

/** What the handler produced, as the adapter captured it before anything was written. */
export type Captured =
  | {
      readonly kind: 'answer';
      readonly status: number;
      /** Reads a response header (as Node's `getHeader`). */
      readonly getHeader: (name: string) => number | string | readonly string[] | undefined;
      /** The body's bytes; null when they cannot be known (a stream). */
      readonly body: Buffer | null;
    }
  | { readonly kind: 'threw'; readonly error: unknown };

/**
 * What the adapter does: `send` this answer instead of the handler's (a replay or a refusal);
 * `proceed` with the handler's own answer, adding `headers`; `rethrow` the handler's error.
 */
export type GuardOutcome =
  | { readonly kind: 'send'; readonly answer: HttpAnswer }
  | { readonly kind: 'proceed'; readonly headers: readonly (readonly [string, string])[] }
  | { readonly kind: 'rethrow'; readonly error: unknown };

/** The handler answered 5xx: not recorded, so the key's retry runs it again. */
class ServerErrorAnswer extends Error {
  constructor(readonly status: number) {
    super(`the handler answered ${status}`);
  }
}

/** The handler threw: its error goes back to the framework, unrecorded. */
class HandlerThrew extends Error {
  constructor(readonly error: unknown) {
    super('the handler threw', { cause: error });
  }
}

/**
 * The `Idempotency-Key` rules of draft-ietf-httpapi-idempotency-key-header on the ledger, shared
 * by the NestJS, Fastify and Express adapters. A guarded request claims the operation
 * `{tenant, source, action, subject: the key}` with its fingerprint input as payload
 * (`runOnce`); the handler runs only when the claim is acquired, and its status, kept headers and
 * body are the confirm's outputs. A retry replays them (`Idempotent-Replayed: true`) — from the
 * in-process {@link ReplayCache} when this process saw the answer, else from the ledger. A 5xx or
 * a throw is not recorded (retryable failure, so a retry runs again) unless a step started
 * (then unknown: a retry gets 409 `awaiting-recovery`).
 */
export class IdempotencyGuard<Req> {
  private readonly methods: ReadonlySet<string>;
  private readonly cache: ReplayCache;
  private readonly expiry: KeyExpiry;
  private readonly client: LedgerClient;

  constructor(private readonly options: IdempotencyOptions<Req>) {
    this.client = options.client;
    this.methods = new Set((options.methods ?? ['POST', 'PATCH']).map((m) => m.toUpperCase()));
    const c = options.replayCache === false ? { maxEntries: 0 } : (options.replayCache ?? {});
    this.cache = new ReplayCache(c.maxEntries ?? 10_000, c.maxBytes ?? 64 * 1024 * 1024);
    this.expiry = new KeyExpiry(options.client.policies, options.expiry ?? 'policy');
  }

  /** True when requests of `method` are guarded. */
  guards(method: string): boolean {
    return this.methods.has(method.toUpperCase());
  }

  /**
   * Guards one request of action `action`: decides from the header, the cache and the ledger
   * whether `run` (the handler, with `req.idempotency`) runs, and what is answered.
   * @throws what `options.tenant` throws.
   */
  async handle(
    req: Req,
    facts: RequestFacts,
    action: string,
    run: (ctx: IdempotencyContext) => Promise<Captured>,
  ): Promise<GuardOutcome> {
    const header = readIdempotencyKey(facts.idempotencyKey);
    if (header.kind === 'malformed')
      return send(invalidKey('invalid-idempotency-key', 'Idempotency-Key is malformed', header.message));
    if (header.kind === 'absent') {
      if (this.options.required)
        return send(
          invalidKey(
            'idempotency-key-missing',
            'Idempotency-Key is missing',
            'this operation is idempotent and requires an Idempotency-Key header',
          ),
        );
      return unguarded(await run(UNGUARDED));
    }
    const key: OperationKey = {
      tenant: await this.options.tenant(req),
      source: this.options.source ?? 'http',
      action,
      subject: header.key,
    };
    const issues = keyIssues(key);
    if (issues.length > 0) {
      const subject = issues.find((i) => i.field === 'key.subject');
      if (subject)
        return send(invalidKey('invalid-idempotency-key', 'Idempotency-Key is malformed', subject.message));
      throw new TypeError(`idempotency adapter: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
    }
    const fp = this.options.fingerprint;
    const payload = typeof fp === 'function' ? fp(req, facts) : fingerprintInput(facts, fp?.exclude);
    // One-shot `crypto.hash` (Node docs: faster than createHash for small inputs held in memory).
    const cacheKey = `${canonicalKey(key)} ${hash('sha256', JSON.stringify(payload) ?? '', 'base64')}`;
    const hit = this.cache.get(cacheKey);
    if (hit) return send(hit);
    return this.claimAndRun(key, header.key, payload, cacheKey, run);
  }

  private async claimAndRun(
    key: OperationKey,
    idempotencyKey: string,
    payload: unknown,
    cacheKey: string,
    run: (ctx: IdempotencyContext) => Promise<Captured>,
  ): Promise<GuardOutcome> {
    const maxBytes = this.options.maxResponseBytes ?? 65_536;
    const keep = this.options.keepHeaders ?? DEFAULT_KEPT_HEADERS;
    let captured: Captured | null = null;
    let recorded: HttpAnswer | null = null;
    const waitMs = this.options.waitMs ?? 0;
    const claiming = claimDeadline((this.options.claimTimeoutMs ?? 5_000) + waitMs);
    try {
      const result = await this.client.runOnce(
        key,
        payload,
        async (op) => {
          claiming.stop();
          captured = await run(guardedContext(idempotencyKey, op));
          if (captured.kind === 'threw') throw new HandlerThrew(captured.error);
          if (captured.status >= 500) throw new ServerErrorAnswer(captured.status);
          const answer = {
            status: captured.status,
            headers: keptHeaders(keep, captured.getHeader),
            body: captured.body,
          };
          const outputs = answerToOutputs(answer, maxBytes);
          recorded = answerFromOutputs(outputs); // what a replay sends: the body cut as recorded
          return { outputs };
        },
        {
          ...(this.options.leaseMs !== undefined ? { leaseMs: this.options.leaseMs } : {}),
          ...(waitMs > 0 ? { waitIfInProgress: { timeoutMs: waitMs, pollMs: Math.min(waitMs, 250) } } : {}),
          signal: claiming.signal,
        },
      );
      claiming.stop();
      const retention = await this.expiry.retentionMs(key.tenant, key.action);
      if (result.status === 'executed') {
        const expiresAt = retention === null ? null : Date.now() + retention;
        const extra = expiryHeader(expiresAt);
        if (recorded) this.cache.set(cacheKey, replayOf(recorded, extra), expiresAt);
        return { kind: 'proceed', headers: extra };
      }
      if (result.state !== 'confirmed')
        return send(
          problemAnswer(
            409,
            `operation-${result.state}`,
            `The operation is ${result.state}`,
            `Idempotency-Key "${idempotencyKey}" was settled as ${result.state}; it is not run again`,
          ),
        );
      const answer = answerFromOutputs(result.outcome.outputs);
      if (!answer)
        return send(
          problemAnswer(
            409,
            'not-an-http-answer',
            'No recorded answer',
            `Idempotency-Key "${idempotencyKey}" was confirmed without an HTTP answer to replay`,
          ),
        );
      const confirmedAt = Date.parse(result.outcome.confirmedAt ?? '') || Date.now();
      const expiresAt = retention === null ? null : confirmedAt + retention;
      const replay = replayOf(answer, expiryHeader(expiresAt));
      this.cache.set(cacheKey, replay, expiresAt);
      return send(replay);
    } catch (err) {
      const c = captured as Captured | null;
      if (err instanceof JobFailedError && err.cause instanceof HandlerThrew)
        return { kind: 'rethrow', error: err.cause.error };
      if (err instanceof JobFailedError && err.cause instanceof ServerErrorAnswer)
        return { kind: 'proceed', headers: [] };
      // The handler ran but its answer could not be recorded (the lease was lost, the ledger went
      // away): the caller still gets what happened; a retry is judged by the ledger.
      if (c?.kind === 'answer' && !(err instanceof LedgerRequestError && err.status === 422))
        return { kind: 'proceed', headers: [] };
      const refusal = refusalAnswer(err, idempotencyKey);
      if (refusal) return send(refusal);
      throw err;
    } finally {
      claiming.stop();
    }
  }
}

/**
 * A signal that aborts with {@link LedgerUnavailableError} after `ms` unless `stop`ped first (the
 * claim was decided): it bounds only the claim, never the handler's run or its confirm.
 */
function claimDeadline(ms: number): { readonly signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new LedgerUnavailableError('POST /v1/claims', 1, null, new Error(`no answer within ${ms} ms`)),
      ),
    ms,
  );
  return { signal: controller.signal, stop: () => clearTimeout(timer) };
}

function send(answer: HttpAnswer): GuardOutcome {
  return { kind: 'send', answer };
}

function unguarded(captured: Captured): GuardOutcome {
  return captured.kind === 'threw'
    ? { kind: 'rethrow', error: captured.error }
    : { kind: 'proceed', headers: [] };
}

function invalidKey(code: string, title: string, detail: string): HttpAnswer {
  return problemAnswer(400, code, title, detail, { errors: [{ field: 'Idempotency-Key', message: detail }] });
}

function expiryHeader(expiresAt: number | null): [string, string][] {
  return expiresAt === null ? [] : [[EXPIRY_HEADER, new Date(expiresAt).toUTCString()]];
}

/** The recorded answer as a replay sends it. */
function replayOf(answer: HttpAnswer, extra: readonly (readonly [string, string])[]): HttpAnswer {
  return { ...answer, headers: [...answer.headers, [REPLAYED_HEADER, 'true'], ...extra] };
}
