import type { NextFunction, Request, Response } from 'express';
import { validationProblem } from './validation.js';
import { unstorableStrings } from './unstorable-strings.js';

/**
 * Express middleware: refuses a query string holding U+0000 or unpaired surrogates (400
 * `validation` naming the parameter) before any route reads it — PostgreSQL cannot compare or
 * store such text, so a filter like `?action=%00` would otherwise fail deep in a query as a 500.
 */
export function storableQuery(req: Request, _res: Response, next: NextFunction): void {
  const errors = unstorableStrings(req.query);
  if (errors.length > 0) return next(validationProblem(errors));
  next();
}
