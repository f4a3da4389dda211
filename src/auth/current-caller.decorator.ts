import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ANONYMOUS_CALLER, type Caller } from './caller.js';

/** The request's {@link Caller}, set by the authentication guard on `req.caller`. */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): Caller => {
  const req = ctx.switchToHttp().getRequest<Request & { caller?: Caller }>();
  return req.caller ?? ANONYMOUS_CALLER;
});
