import type { Request } from 'express';
import type { Caller } from './caller.js';

/** An Express request after authentication: `caller` is set by the middleware or the guard. */
export type RequestWithCaller = Request & { caller?: Caller };
