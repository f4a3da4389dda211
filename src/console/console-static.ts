import express, { type RequestHandler, type Response } from 'express';
import { problem, PROBLEM_CONTENT_TYPE } from '../common/problem.js';
import { CONSOLE_HEADERS } from './console-headers.js';

/** One year, s: hashed asset file names change with their content, so they never go stale. */
const IMMUTABLE_MAX_AGE_S = 365 * 24 * 3600;

/**
 * Express handlers serving the console's built files from `directory` (mounted at `/console`):
 * every answer carries {@link CONSOLE_HEADERS}; `assets/*` (content-hashed names) are cached for
 * a year, `index.html` is revalidated on every load (`no-cache`); `/console` redirects to
 * `/console/`. A missing file answers 404 problem+json `not-found`; without a build
 * (`directory` null) every request answers 404 `console-not-built` naming the build command.
 */
export function consoleStatic(directory: string | null): RequestHandler[] {
  const headers: RequestHandler = (_req, res, next) => {
    res.set(CONSOLE_HEADERS);
    next();
  };
  if (directory === null) {
    return [
      headers,
      answer('console-not-built', 'the console is not built: run `npm run build` and restart'),
    ];
  }
  const files = express.static(directory, {
    index: 'index.html',
    dotfiles: 'deny',
    setHeaders: (res: Response, path: string) => {
      const hashed = /[\\/]assets[\\/]/.test(path);
      res.setHeader(
        'Cache-Control',
        hashed ? `public, max-age=${IMMUTABLE_MAX_AGE_S}, immutable` : 'no-cache',
      );
    },
  });
  return [headers, files, answer('not-found', 'no such console file')];
}

/** A terminal handler answering 404 problem+json with `code`. */
function answer(code: string, detail: string): RequestHandler {
  return (_req, res) => {
    res
      .status(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(JSON.stringify(problem(code, 404, detail)));
  };
}
