import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RequestWithCaller } from '../auth/request-caller.js';
import { newRequestContext, type RequestContext } from './event-metadata.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's correlation: `X-Request-Id` (or `X-Correlation-Id`) when it is a plain token of at
 * most 128 characters, else a new UUID; a new causation id per command; the API key id of the
 * authenticated caller (recorded in event metadata as `keyId`).
 */
export const Ctx = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestContext => {
  const req = ctx.switchToHttp().getRequest<RequestWithCaller>();
  const given = req.header('x-request-id') ?? req.header('x-correlation-id');
  const context = newRequestContext(given && SAFE_ID.test(given) ? given : undefined);
  const keyId = req.caller?.keyId;
  return keyId && keyId !== 'anonymous' ? { ...context, keyId } : context;
});
