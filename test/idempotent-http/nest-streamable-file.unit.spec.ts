// docs/protect-your-api.md "Fastify and Express": a streamed body is recorded without its bytes
// and sent as the handler streams it. A NestJS handler's StreamableFile was instead sent (and
// recorded) as the JSON of the object's internals: the client got `{"options":…,"stream":…}`
// instead of the file.
import { StreamableFile, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { Readable } from 'node:stream';
import { lastValueFrom, of } from 'rxjs';
import type {
  Captured,
  IdempotencyGuard,
} from '../../packages/client/src/idempotent-http/idempotency-guard.js';
import { IdempotencyInterceptor } from '../../packages/client/src/idempotent-http/nestjs.js';

it('sends a StreamableFile as the stream and records the answer without its bytes', async () => {
  let captured: Captured | undefined;
  const guard = {
    guards: () => true,
    handle: async (
      _req: unknown,
      _facts: unknown,
      _action: string,
      run: (ctx: unknown) => Promise<Captured>,
    ) => {
      captured = await run({});
      return { kind: 'proceed', headers: [] };
    },
  } as unknown as IdempotencyGuard<unknown>;
  const reflector = { get: () => ({ action: 'report.export' }) } as unknown as Reflector;
  const headers = new Map<string, string>();
  const res = {
    statusCode: 201,
    status: (code: number) => (res.statusCode = code),
    header: (n: string, v: string) => headers.set(n.toLowerCase(), v),
    getHeader: (n: string) => headers.get(n.toLowerCase()),
  };
  const req = { method: 'POST', url: '/reports', headers: { 'idempotency-key': '"r-1"' }, body: {} };
  const context = {
    getHandler: () => () => undefined,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  const file = new StreamableFile(Readable.from([Buffer.from('a,b\n')]), { type: 'text/csv' });

  const sent = await lastValueFrom(
    new IdempotencyInterceptor(guard, reflector).intercept(context, { handle: () => of(file) }),
  );

  expect(sent).toBe(file);
  expect(captured).toMatchObject({ kind: 'answer', status: 201, body: null });
  expect((captured as Extract<Captured, { kind: 'answer' }>).getHeader('content-type')).toBe('text/csv');
});
