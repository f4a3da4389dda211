import type { IncomingMessage } from 'node:http';
import type { NodeMiddleware } from './node-middleware.js';
import { validationProblem } from './validation.js';
import { unstorableStrings } from './unstorable-strings.js';

/**
 * Middleware refusing query strings PostgreSQL cannot store (U+0000, unpaired surrogates) with
 * 400 `validation` naming the parameter, before they fail deep in a query as a 500.
 */
export const storableQuery: NodeMiddleware = (req, _res, next) => {
  const errors = unstorableStrings((req as IncomingMessage & { query?: unknown }).query);
  if (errors.length > 0) return next(validationProblem(errors));
  next();
};
