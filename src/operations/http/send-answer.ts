import type { Response } from 'express';
import type { HttpAnswer } from './http-answer.js';

/** Applies an answer's status and headers to a passthrough response and returns its body. */
export function sendAnswer(res: Response, a: HttpAnswer): unknown {
  res.status(a.status);
  for (const [name, value] of Object.entries(a.headers)) res.setHeader(name, value);
  if (a.status >= 400) res.type('application/problem+json');
  return a.body;
}
