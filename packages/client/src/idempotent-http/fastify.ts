/**
 * `@operation-ledger/client/fastify`: the `Idempotency-Key` rules of
 * draft-ietf-httpapi-idempotency-key-header as a Fastify plugin, on the ledger. See
 * docs/protect-your-api.md.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { bodyBytes, type HttpAnswer } from './http-answer.js';
import { deferred, type Deferred } from './deferred.js';
import { IdempotencyGuard, type Captured, type GuardOutcome } from './idempotency-guard.js';
import type { IdempotencyContext } from './idempotency-context.js';
import type { IdempotencyOptions } from './idempotency-options.js';

export type { IdempotencyContext } from './idempotency-context.js';
export type { IdempotencyOptions } from './idempotency-options.js';

/** Options of {@link fastifyIdempotency}. */
export interface FastifyIdempotencyOptions extends IdempotencyOptions<FastifyRequest> {
  /**
   * The `action` of a route without `config.idempotency.action`. @defaultValue the method and
   * the route template, e.g. `POST /orders`
   */
  readonly action?: (req: FastifyRequest) => string;
}

/** A route's `config.idempotency`: its action, or `false` to leave it unguarded. */
export type IdempotentRouteConfig = { readonly action?: string } | false;

interface InFlight {
  readonly capture: Deferred<Captured>;
  readonly outcome: Promise<GuardOutcome>;
  done: boolean;
}

const IN_FLIGHT = Symbol('operation-ledger.idempotency');

/**
 * The plugin: every route of `options.methods` (POST and PATCH by default) not configured
 * `config: { idempotency: false }` is guarded. The handler finds `request.idempotency` (its
 * `step`); its answer (status, kept headers, serialized body) is recorded before it is sent; a
 * retry gets the recorded answer with `Idempotent-Replayed: true`, refusals are problem+json
 * (see {@link IdempotencyGuard}). Registered without encapsulation, so it guards the routes of
 * the instance it is registered on.
 */
export const fastifyIdempotency: FastifyPluginAsync<FastifyIdempotencyOptions> = async (fastify, options) => {
  const guard = new IdempotencyGuard<FastifyRequest>(options);
  fastify.decorateRequest('idempotency', null);
  fastify.addHook('preHandler', async (req, reply) => {
    if (!guard.guards(req.method)) return;
    const config = (req.routeOptions.config as { idempotency?: IdempotentRouteConfig }).idempotency;
    if (config === false) return;
    const action =
      config?.action ?? options.action?.(req) ?? `${req.method} ${req.routeOptions.url ?? req.url}`;
    const capture = deferred<Captured>();
    const started = deferred<'run'>();
    const facts = {
      method: req.method,
      route: req.routeOptions.url ?? req.url,
      body: req.body,
      idempotencyKey: req.headers['idempotency-key'],
    };
    const outcome = guard.handle(req, facts, action, (ctx: IdempotencyContext) => {
      (req as FastifyRequest & { idempotency: IdempotencyContext }).idempotency = ctx;
      started.resolve('run');
      return capture.promise;
    });
    const flight: InFlight = { capture, outcome, done: false };
    (req as unknown as Record<symbol, InFlight>)[IN_FLIGHT] = flight;
    let first: 'run' | GuardOutcome;
    try {
      first = await Promise.race([started.promise, outcome]);
    } catch (err) {
      flight.done = true;
      throw err;
    }
    if (first === 'run') return;
    flight.done = true;
    if (first.kind === 'rethrow') throw first.error;
    if (first.kind === 'send') return writeAnswer(reply, first.answer);
  });
  fastify.addHook('onSend', async (req, reply, payload) => {
    const flight = (req as unknown as Record<symbol, InFlight | undefined>)[IN_FLIGHT];
    if (!flight || flight.done) return payload;
    flight.done = true;
    flight.capture.resolve({
      kind: 'answer',
      status: reply.statusCode,
      getHeader: (name) => reply.getHeader(name) as string | number | string[] | undefined,
      body: bodyBytes(payload),
    });
    const outcome = await flight.outcome;
    if (outcome.kind === 'proceed') for (const [n, v] of outcome.headers) void reply.header(n, v);
    if (outcome.kind !== 'send') return payload;
    void reply.code(outcome.answer.status);
    for (const [n, v] of outcome.answer.headers) void reply.header(n, v);
    return outcome.answer.body ?? '';
  });
  // A request that ends without an answer (the client went away) frees its claim for a retry.
  fastify.addHook('onResponse', async (req) => {
    const flight = (req as unknown as Record<symbol, InFlight | undefined>)[IN_FLIGHT];
    if (flight && !flight.done)
      flight.capture.resolve({ kind: 'threw', error: new Error('no answer was sent') });
  });
};
// Fastify's `skip-override`, as fastify-plugin sets it: the hooks apply to the parent's routes.
(fastifyIdempotency as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

function writeAnswer(reply: FastifyReply, answer: HttpAnswer): FastifyReply {
  void reply.code(answer.status);
  for (const [n, v] of answer.headers) void reply.header(n, v);
  return reply.send(answer.body ?? '');
}
