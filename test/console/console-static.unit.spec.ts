// The console's files on the ledger's router (which ignores a trailing slash, as Express's routes
// did): `/console` redirects to `/console/` once, `/console/` is the page — never a redirect loop
// (a browser gave up with ERR_TOO_MANY_REDIRECTS after the move to Fastify) — with and without a
// console build.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { serveConsole } from '../../src/console/console-static.js';

async function consoleServer(directory: string | null) {
  const fastify = Fastify({ routerOptions: { ignoreTrailingSlash: true, caseSensitive: false } });
  serveConsole(fastify, directory);
  await fastify.ready();
  return fastify;
}

it('redirects /console to /console/ and serves the page there', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-console-'));
  await writeFile(join(dir, 'index.html'), '<title>console</title>');
  const fastify = await consoleServer(dir);
  const bare = await fastify.inject({ url: '/console' });
  expect([bare.statusCode, bare.headers['location']]).toEqual([301, '/console/']);
  const page = await fastify.inject({ url: '/console/' });
  expect([page.statusCode, page.body]).toEqual([200, '<title>console</title>']);
  expect(page.headers['cache-control']).toBe('no-cache');
  expect((await fastify.inject({ url: '/console/nope.js' })).json()).toMatchObject({ code: 'not-found' });
  await fastify.close();
});

it('answers 404 console-not-built at /console/ without a build, after one redirect', async () => {
  const fastify = await consoleServer(null);
  expect((await fastify.inject({ url: '/console' })).statusCode).toBe(301);
  const page = await fastify.inject({ url: '/console/' });
  expect(page.statusCode).toBe(404);
  expect(page.json()).toMatchObject({ code: 'console-not-built' });
  await fastify.close();
});
