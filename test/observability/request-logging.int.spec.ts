// The request-log middleware on a bare Fastify app (middleware through @fastify/middie, as Nest
// runs it): one line per request with the route template,
// status, duration and key id, the X-Request-Id echo on every answer, no headers or payloads
// (the body only at debug).
import { Writable } from 'node:stream';
import middie from '@fastify/middie';
import Fastify from 'fastify';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import {
  createLogger,
  keepBodyForRequestLog,
  recordRouteTemplate,
  requestLogging,
} from '../../src/observability/index.js';
import { LogRateLimit } from '../../src/observability/http/log-rate-limit.js';

const TOKEN = `olk_0123456789abcdef01234567_${'S'.repeat(43)}`;

function appWith(level: 'info' | 'debug', limit?: LogRateLimit) {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  const fastify = Fastify();
  const ready = (async () => {
    // Before the middleware, as src/create-ledger-app.ts adds it: refusals keep their route.
    fastify.addHook('onRequest', (req, _reply, done) => {
      recordRouteTemplate(req);
      done();
    });
    await fastify.register(middie);
    fastify.use(requestLogging(createLogger({ level, pretty: false }, stream), limit));
    fastify.use('/v1', (req: IncomingMessage, res: ServerResponse, next: () => void) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.statusCode = 401;
        return void res.end();
      }
      (req as any).caller = { keyId: '0123456789abcdef01234567' };
      next();
    });
    fastify.addHook('preValidation', (req, _reply, done) => {
      keepBodyForRequestLog(req);
      done();
    });
    fastify.post('/v1/operations/:operationId/confirm', async () => ({ ok: true }));
    fastify.get('/health', async () => ({ status: 'ok' }));
    fastify.get('/boom', async (_req, reply) => reply.status(503).send());
    fastify.get('/leak', async () => {
      throw new Error(`store at postgres://ledger:hunter2@db:5432/x refused ${TOKEN}`);
    });
    // As an error filter hands the failure to the request log: on the response.
    fastify.setErrorHandler((err, _req, reply) => {
      (reply.raw as unknown as { err: unknown }).err = err;
      void reply.status(500).send();
    });
    await fastify.ready();
  })();
  const app = (req: IncomingMessage, res: ServerResponse) => void ready.then(() => fastify.routing(req, res));
  return { app, lines };
}

describe('requestLogging', () => {
  it('writes one line with the route template, status, ms and key id, and echoes X-Request-Id', async () => {
    const { app, lines } = appWith('info');
    const res = await request(app)
      .post('/v1/operations/6f1c/confirm?debug=1')
      .set('authorization', `Bearer ${TOKEN}`)
      .set('x-request-id', 'job-7')
      .send({ destinationRef: 'marker-payload' });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('job-7');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      requestId: 'job-7',
      method: 'POST',
      route: '/v1/operations/:operationId/confirm',
      status: 200,
      keyId: '0123456789abcdef01234567',
      msg: 'POST /v1/operations/:operationId/confirm 200',
    });
    expect(typeof lines[0]!.ms).toBe('number');
    const out = JSON.stringify(lines);
    expect(out).not.toContain('S'.repeat(43));
    expect(out).not.toContain('marker-payload');
    expect(out).not.toContain('6f1c');
  });

  it('logs a 401 refused before the route ran at warn under its route template, with X-Request-Id', async () => {
    const { app, lines } = appWith('info');
    const res = await request(app)
      .post('/v1/operations/6f1c/confirm')
      .set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(res.status).toBe(401);
    expect(res.headers['x-request-id']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(lines[0]).toMatchObject({
      level: 'warn',
      route: '/v1/operations/:operationId/confirm',
      status: 401,
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      msg: 'POST /v1/operations/:operationId/confirm 401',
    });
    expect(lines[0]!.path).toBeUndefined();
    expect(lines[0]!.keyId).toBeUndefined();
  });

  it('logs the path when no route matched', async () => {
    const { app, lines } = appWith('info');
    expect((await request(app).get('/nowhere/6f1c')).status).toBe(404);
    expect(lines[0]).toMatchObject({ level: 'info', route: 'unmatched', path: '/nowhere/6f1c', status: 404 });
  });

  it('logs 503s at warn, at most a burst per route and window; the next line counts the ones left out', async () => {
    const { app, lines } = appWith('info', new LogRateLimit(3, 300));
    for (let i = 0; i < 8; i++) expect((await request(app).get('/boom')).status).toBe(503);
    expect(lines.map((l) => [l.level, l.route, l.status])).toEqual(Array(3).fill(['warn', '/boom', 503]));
    await new Promise((r) => setTimeout(r, 350));
    await request(app).get('/boom');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({ level: 'warn', status: 503, suppressed: 5 });
    expect(lines[0]!.suppressed).toBeUndefined();
  });

  it("logs a 5xx's error scrubbed like every other line: no password, no token secret in message or stack", async () => {
    const { app, lines } = appWith('info');
    expect((await request(app).get('/leak')).status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', route: '/leak', status: 500 });
    expect(lines[0]!.err.stack).toContain('store at postgres://');
    const out = JSON.stringify(lines);
    expect(out).not.toContain('hunter2');
    expect(out).not.toContain('S'.repeat(43));
  });

  it('logs 5xx at error (503 at warn), successful probes at debug only, and the body only at debug', async () => {
    const info = appWith('info');
    await request(info.app).get('/health');
    await request(info.app).get('/boom');
    await request(info.app).get('/leak');
    expect(info.lines.map((l) => [l.route, l.level])).toEqual([
      ['/boom', 'warn'],
      ['/leak', 'error'],
    ]);

    const debug = appWith('debug');
    await request(debug.app).get('/health');
    await request(debug.app)
      .post('/v1/operations/6f1c/confirm')
      .set('authorization', `Bearer ${TOKEN}`)
      .send({ destinationRef: 'D-1' });
    expect(debug.lines[0]).toMatchObject({ route: '/health', level: 'debug' });
    expect(debug.lines[1]!.body).toEqual({ destinationRef: 'D-1' });
  });

  it('scrubs a token sent in the path or as the X-Request-Id from the line, as every other line is scrubbed', async () => {
    const { app, lines } = appWith('info');
    await request(app)
      .get(`/v1/${TOKEN}?x=1`)
      .set('authorization', `Bearer ${TOKEN}`)
      .set('x-request-id', TOKEN);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ route: 'unmatched', status: 404 });
    expect(lines[0]!.path).toBe('/v1/olk_0123456789abcdef01234567_[redacted]');
    expect(lines[0]!.requestId).toBe('olk_0123456789abcdef01234567_[redacted]');
    expect(JSON.stringify(lines)).not.toContain('S'.repeat(43));
  });

  it('logs a request whose client went away before an answer as aborted, not as a 200', async () => {
    const { app, lines } = appWith('info');
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        'POST /v1/operations/6f1c/confirm HTTP/1.1\r\nHost: x\r\nX-Request-Id: gone-1\r\n' +
          `Authorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"dest`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
      for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: 'gone-1',
      aborted: true,
      msg: 'POST /v1/operations/:operationId/confirm aborted',
    });
    expect(lines[0]!.status).not.toBe(200);
  });
});
