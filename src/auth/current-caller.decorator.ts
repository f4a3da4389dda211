import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ANONYMOUS_CALLER, type Caller } from './caller.js';
import { callerHolderOf } from './request-caller.js';

/** The request's {@link Caller}, set by the authentication middleware or guard (`callerHolderOf`). */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): Caller => {
  return callerHolderOf(ctx.switchToHttp().getRequest<object>()).caller ?? ANONYMOUS_CALLER;
});
