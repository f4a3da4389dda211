import type { IncomingMessage } from 'node:http';
import type { NodeMiddleware } from './node-middleware.js';
import { validationProblem } from './validation.js';
import { unstorableStrings } from './unstorable-strings.js';

/**
 * Middleware: refuses a query string holding U+0000 or unpaired surrogates (400 `validation`
 * naming the parameter) before any route reads it — PostgreSQL cannot compare or store such
 * text, so a filter like `?action=%00` would otherwise fail deep in a query as a 500. Reads the
 * query Fastify parsed (`@fastify/middie` copies it to the Node.js request).
 */
export const storableQuery: NodeMiddleware = (req, _res, next) => {
  const errors = unstorableStrings((req as IncomingMessage & { query?: unknown }).query);
  if (errors.length > 0) return next(validationProblem(errors));
  next();
};
