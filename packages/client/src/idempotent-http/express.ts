/**
 * `@operation-ledger/client/express`: the `Idempotency-Key` rules of
 * draft-ietf-httpapi-idempotency-key-header as Express route middleware, on the ledger. See
 * docs/protect-your-api.md.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Captured } from './idempotency-guard.js';
import { IdempotencyGuard } from './idempotency-guard.js';
import type { IdempotencyContext } from './idempotency-context.js';
import type { IdempotencyOptions } from './idempotency-options.js';
import type { HttpAnswer } from './http-answer.js';

export type { IdempotencyContext } from './idempotency-context.js';
export type { IdempotencyOptions } from './idempotency-options.js';

/** A route's idempotency: the operation key's `action` (e.g. `order.create`). */
export interface IdempotentRoute {
  readonly action: string;
}

type Write = Response['write'];
type End = Response['end'];

/**
 * Returns the route middleware factory: `app.post('/orders', idempotent({ action:
 * 'order.create' }), handler)`. The handler finds `req.idempotency` (its `step`). Its answer is
 * held until the ledger recorded it (status, kept headers, body), then written; a retry gets the
 * recorded answer with `Idempotent-Replayed: true`, refusals are problem+json (see
 * {@link IdempotencyGuard}). Routes of other methods than `options.methods` pass untouched.
 * Needs a body parser before it (`express.json()`): the fingerprint is taken over `req.body`.
 * @throws (through `next`) what `options.tenant` throws; a TypeError for a keyed request with a
 *   body that no parser read (unless `options.fingerprint` is a function).
 */
export function expressIdempotency(
  options: IdempotencyOptions<Request>,
): (route: IdempotentRoute) => RequestHandler {
  const guard = new IdempotencyGuard<Request>(options);
  return (route) => (req, res, next) => {
    if (!guard.guards(req.method)) return next();
    if (typeof options.fingerprint !== 'function' && bodyUnseen(req)) return next(new TypeError(NO_PARSER));
    const realWrite = res.write;
    const realEnd = res.end;
    const chunks: Buffer[] = [];
    let ran = false;
    const restore = () => {
      res.write = realWrite;
      res.end = realEnd;
    };
    const run = (ctx: IdempotencyContext) =>
      new Promise<Captured>((resolve) => {
        ran = true;
        (req as Request & { idempotency: IdempotencyContext }).idempotency = ctx;
        res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
          chunks.push(toBuffer(chunk, encoding));
          if (typeof encoding === 'function') (encoding as () => void)();
          else if (typeof cb === 'function') (cb as () => void)();
          return true;
        }) as Write;
        let gone: NodeJS.Timeout | undefined;
        let ended = false;
        res.end = ((chunk?: unknown, encoding?: unknown) => {
          ended = true;
          clearTimeout(gone);
          if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
          resolve({
            kind: 'answer',
            status: res.statusCode,
            getHeader: (name) => res.getHeader(name),
            body: Buffer.concat(chunks),
          });
          return res;
        }) as End;
        // A client that gave up may retry at once: the handler still runs, so its answer is still
        // recorded (the retry meanwhile gets 409 in-progress). Only a handler that does not answer
        // within a lease after the client left is taken as failed, freeing the key.
        res.once('close', () => {
          if (ended) return;
          gone = setTimeout(
            () =>
              resolve({
                kind: 'threw',
                error: new Error('the client went away; the handler did not answer'),
              }),
            options.leaseMs ?? 30_000,
          );
          gone.unref();
        });
        next();
      });
    const facts = {
      method: req.method,
      route: `${req.baseUrl}${typeof req.route?.path === 'string' ? req.route.path : req.path}`,
      body: req.body as unknown,
      idempotencyKey: req.headers['idempotency-key'],
    };
    guard.handle(req, facts, route.action, run).then(
      (outcome) => {
        restore();
        if (outcome.kind === 'send') return writeAnswer(res, outcome.answer);
        if (outcome.kind === 'rethrow') return ran ? undefined : next(outcome.error);
        if (!res.headersSent) for (const [n, v] of outcome.headers) res.setHeader(n, v);
        (realEnd as (chunk: Buffer) => Response).call(res, Buffer.concat(chunks));
      },
      (err: unknown) => {
        restore();
        next(err);
      },
    );
  };
}

const NO_PARSER =
  'expressIdempotency: req.body is undefined although the request has a body: mount a body parser ' +
  '(express.json()) before this middleware, or every body would get the same fingerprint';

/**
 * Whether a keyed request carries a body that no parser before this middleware read (RFC 9112
 * §6.3: a Transfer-Encoding or a Content-Length above 0 means a body).
 */
function bodyUnseen(req: Request): boolean {
  if (req.body !== undefined || req.headers['idempotency-key'] === undefined) return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function writeAnswer(res: Response, answer: HttpAnswer): void {
  res.status(answer.status);
  for (const [n, v] of answer.headers) res.setHeader(n, v);
  res.end(answer.body ?? Buffer.alloc(0));
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}
