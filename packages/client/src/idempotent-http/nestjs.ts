/**
 * `@operation-ledger/client/nestjs`: the `Idempotency-Key` rules of
 * draft-ietf-httpapi-idempotency-key-header as a NestJS interceptor and the `@Idempotent`
 * decorator, on the ledger, for Nest on Express or Fastify. See docs/protect-your-api.md.
 */
import {
  applyDecorators,
  Global,
  HttpException,
  Inject,
  Injectable,
  Module,
  SetMetadata,
  StreamableFile,
  UseInterceptors,
  type CallHandler,
  type DynamicModule,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, mergeMap, of, throwError, type Observable } from 'rxjs';
import { bodyBytes, type HttpAnswer } from './http-answer.js';
import { IdempotencyGuard, type Captured } from './idempotency-guard.js';
import type { IdempotencyContext } from './idempotency-context.js';
import type { IdempotencyOptions } from './idempotency-options.js';

export type { IdempotencyContext } from './idempotency-context.js';
export type { IdempotencyOptions } from './idempotency-options.js';

/**
 * The injection token of the one {@link IdempotencyGuard} made from the options given to
 * {@link IdempotencyModule.forRoot}: Nest makes an interceptor per module that uses it, and they
 * all share this guard (its replay cache and policy reads).
 */
export const IDEMPOTENCY_GUARD = Symbol('operation-ledger.idempotency-guard');
const ROUTE = 'operation-ledger:idempotent';

/** A guarded request as a handler sees it (`@Req() req: IdempotentRequest`). */
export interface IdempotentRequest {
  /** The key and `step` of this request (steps just run when it carries no key). */
  readonly idempotency: IdempotencyContext;
}

/** A route's idempotency: the operation key's `action` (e.g. `order.create`). */
export interface IdempotentRoute {
  readonly action: string;
}

/** What the interceptor needs of Express's `res` and Fastify's `reply` alike. */
interface PlatformResponse {
  statusCode: number;
  status(code: number): unknown;
  header(name: string, value: string): unknown;
  getHeader(name: string): number | string | string[] | undefined;
}

interface PlatformRequest {
  method: string;
  body?: unknown;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  routeOptions?: { url?: string };
  route?: { path?: unknown };
  baseUrl?: string;
  idempotency?: IdempotencyContext;
}

/**
 * The interceptor behind {@link Idempotent}. The handler's answer — its value as JSON text (or a
 * string or Buffer as is), or a 4xx `HttpException` as Nest's default filter writes it — is
 * recorded before it is sent; a retry gets it back with `Idempotent-Replayed: true`; refusals are
 * problem+json (see {@link IdempotencyGuard}). Other errors (5xx) go to the exception filters
 * unrecorded.
 */
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly guard: IdempotencyGuard<unknown>,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<IdempotentRoute | undefined>(ROUTE, context.getHandler());
    const req = context.switchToHttp().getRequest<PlatformRequest>();
    const res = context.switchToHttp().getResponse<PlatformResponse>();
    if (!route || !this.guard.guards(req.method)) return next.handle();
    let body: Buffer | string | StreamableFile | null = null;
    const run = async (ctx: IdempotencyContext): Promise<Captured> => {
      req.idempotency = ctx;
      try {
        body = asBody(await lastValueFrom(next.handle(), { defaultValue: undefined }), res);
      } catch (error) {
        if (!(error instanceof HttpException) || error.getStatus() >= 500) return { kind: 'threw', error };
        res.status(error.getStatus());
        body = asBody(errorBody(error), res);
      }
      // a stream's bytes cannot be known before it is sent: recorded without them
      const bytes =
        typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof StreamableFile ? null : body;
      return { kind: 'answer', status: res.statusCode, getHeader: (n) => res.getHeader(n), body: bytes };
    };
    const facts = {
      method: req.method,
      route:
        req.routeOptions?.url ??
        `${req.baseUrl ?? ''}${typeof req.route?.path === 'string' ? req.route.path : req.url}`,
      body: req.body,
      idempotencyKey: req.headers['idempotency-key'],
    };
    return from(this.guard.handle(req, facts, route.action, run)).pipe(
      mergeMap((outcome) => {
        if (outcome.kind === 'rethrow') return throwError(() => outcome.error);
        if (outcome.kind === 'send') return of(write(res, outcome.answer));
        for (const [n, v] of outcome.headers) res.header(n, v);
        return of(Buffer.isBuffer(body) ? new StreamableFile(body) : body);
      }),
    );
  }
}
Injectable()(IdempotencyInterceptor);
Inject(IDEMPOTENCY_GUARD)(IdempotencyInterceptor, undefined, 0);
Inject(Reflector)(IdempotencyInterceptor, undefined, 1);

/**
 * Guards a route: `@Idempotent({ action: 'order.create' })` on a controller method (needs
 * {@link IdempotencyModule.forRoot} in the app).
 */
export function Idempotent(route: IdempotentRoute): MethodDecorator {
  return applyDecorators(SetMetadata(ROUTE, route), UseInterceptors(IdempotencyInterceptor));
}

/** Provides the options (once, globally) to every {@link Idempotent} route. */
export class IdempotencyModule {
  /**
   * The module with these options; `Req` is the request as the platform hands it to
   * interceptors (Fastify's request or Express's), which `options.tenant` reads.
   */
  static forRoot<Req = unknown>(options: IdempotencyOptions<Req>): DynamicModule {
    return {
      module: IdempotencyModule,
      global: true,
      providers: [
        {
          provide: IDEMPOTENCY_GUARD,
          useValue: new IdempotencyGuard(options as IdempotencyOptions<unknown>),
        },
        IdempotencyInterceptor,
      ],
      exports: [IDEMPOTENCY_GUARD, IdempotencyInterceptor],
    };
  }
}
Global()(IdempotencyModule);
Module({})(IdempotencyModule);

/**
 * A handler's value as sent: a string as is (also for nothing: ''), bytes as a Buffer, a
 * StreamableFile as the stream it is (its type as Content-Type; recorded without its bytes), anything
 * else as JSON text with `Content-Type: application/json` — so the first answer and its replays
 * are the same bytes on Express and Fastify alike.
 */
function asBody(value: unknown, res: PlatformResponse): Buffer | string | StreamableFile {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (value instanceof StreamableFile) {
    const type = value.getHeaders().type;
    if (res.getHeader('content-type') === undefined && type) res.header('content-type', type);
    return value;
  }
  const raw = bodyBytes(value);
  if (raw !== null) return raw;
  if (res.getHeader('content-type') === undefined)
    res.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(value);
}

/** The body Nest's default exception filter writes for `error`. */
function errorBody(error: HttpException): unknown {
  const r = error.getResponse();
  return typeof r === 'object' && r !== null ? r : { statusCode: error.getStatus(), message: r };
}

/**
 * Sets status and headers; the body is returned for Nest to send: as text (Nest on Express would
 * send a Buffer as JSON), or as a StreamableFile when it is not UTF-8.
 */
function write(res: PlatformResponse, answer: HttpAnswer): string | StreamableFile {
  res.status(answer.status);
  for (const [n, v] of answer.headers) res.header(n, v);
  const body = answer.body ?? Buffer.alloc(0);
  const text = body.toString('utf8');
  return Buffer.from(text, 'utf8').equals(body) ? text : new StreamableFile(body);
}
