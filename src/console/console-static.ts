import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { problem, PROBLEM_CONTENT_TYPE } from '../common/problem.js';
import { CONSOLE_HEADERS } from './console-headers.js';

/** One year, s: hashed asset file names change with their content, so they never go stale. */
const IMMUTABLE_MAX_AGE_S = 365 * 24 * 3600;

/**
 * Serves the console's built files at `/console` with {@link CONSOLE_HEADERS}: hashed `assets/*`
 * cached for a year, `index.html` revalidated; without a build, 404 `console-not-built`.
 */
export function serveConsole(fastify: FastifyInstance, directory: string | null): void {
  // Not awaited: awaiting `register` would load every plugin and route queued so far at once,
  // before Nest installs its error handler (routes keep the handler they were loaded with).
  void fastify.register(
    async (scope) => {
      scope.addHook('onRequest', (_request, reply, done) => {
        void reply.headers(CONSOLE_HEADERS);
        done();
      });
      // The router ignores a trailing slash (as Express did for routes), so `/console/` reaches this
      // route as well as `/console`: only the path without the slash is redirected.
      scope.route({
        method: ['GET', 'HEAD'],
        url: '/',
        prefixTrailingSlash: 'no-slash',
        handler: (request, reply) => {
          if (!request.url.split('?', 1)[0]!.endsWith('/')) return reply.redirect('/console/', 301);
          return directory === null ? notBuilt(request, reply) : reply.sendFile('index.html');
        },
      });
      if (directory === null) {
        scope.route({ method: ['GET', 'HEAD'], url: '/*', handler: notBuilt });
        scope.setNotFoundHandler(notBuilt);
        return;
      }
      await scope.register(fastifyStatic, {
        root: directory,
        prefix: '/',
        index: 'index.html',
        dotfiles: 'deny',
        setHeaders: (reply: FastifyReply, path: string) => {
          const hashed = /[\\/]assets[\\/]/.test(path);
          void reply.header(
            'Cache-Control',
            hashed ? `public, max-age=${IMMUTABLE_MAX_AGE_S}, immutable` : 'no-cache',
          );
        },
      });
      scope.setNotFoundHandler((_request, reply) => answer(reply, 'not-found', 'no such console file'));
    },
    { prefix: '/console' },
  );
}

/** The answer to every console request while the console is not built. */
function notBuilt(_request: unknown, reply: FastifyReply): FastifyReply {
  return answer(reply, 'console-not-built', 'the console is not built: run `npm run build` and restart');
}

/** Answers 404 problem+json with `code`. */
function answer(reply: FastifyReply, code: string, detail: string): FastifyReply {
  return reply
    .status(404)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problem(code, 404, detail)));
}
