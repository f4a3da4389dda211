import { Pool } from 'undici';
import { runLoad, type LoadOp, type LoadResult } from '../harness.js';
import { Workload } from '../workload.js';
import type { LoadCommand, LoadReply, ServerAddress } from './load-protocol.js';
import { probeOneStep } from './one-step-probe.js';
import { seedOp, targetOp, type OpContext } from './target-ops.js';
import { targetById, type ServerId } from './targets.js';

/**
 * The load generator of `npm run bench:http`: its own process (forked by bench/http/load-client.ts),
 * so its CPU is not the servers'. It drives HTTP through undici Pools, one connection per
 * closed-loop client (pipelining 1), and answers the commands of bench/http/load-protocol.ts.
 * Every request times out after 10 s (headers and body), so a stuck server ends a round as errors.
 */
let workload = new Workload();
let servers: Readonly<Partial<Record<ServerId, ServerAddress>>> = {};
let connections = 32;
let dupKeys = 512;
let open: { pool: Pool; op: LoadOp } | null = null;

function context(server: ServerId, family: string): { ctx: OpContext; pool: Pool } {
  const address = servers[server];
  if (!address) throw new Error(`no address for server ${server}`);
  const pool = new Pool(address.url, {
    connections,
    pipelining: 1,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  return { pool, ctx: { pool, url: address.url, server, tokens: address.tokens, workload, family, dupKeys } };
}

async function closeOpen(): Promise<void> {
  const current = open;
  open = null;
  await current?.pool.close();
}

async function handle(command: LoadCommand): Promise<LoadResult | string | null> {
  switch (command.cmd) {
    case 'setup':
      ({ servers, connections, dupKeys } = command);
      if (command.runTag) workload = new Workload(command.runTag);
      return null;
    case 'seed': {
      const { ctx, pool } = context(command.server, 'seed');
      try {
        const op = seedOp(ctx);
        if (!op) return null;
        const result = await runLoad(op, { concurrency: connections, ops: dupKeys, durationMs: 300_000 });
        if (result.errors > 0 || result.ops !== dupKeys) {
          throw new Error(`seeding ${command.server}: ${result.ops}/${dupKeys} done, ${result.firstError}`);
        }
        return null;
      } finally {
        await pool.close();
      }
    }
    case 'probe-one-step': {
      const { ctx, pool } = context(command.server, 'probe-one-step');
      try {
        return await probeOneStep(ctx);
      } finally {
        await pool.close();
      }
    }
    case 'open': {
      await closeOpen();
      const target = targetById(command.target);
      const { ctx, pool } = context(target.server, target.id);
      open = { pool, op: targetOp(target.op, ctx) };
      return null;
    }
    case 'load':
      if (!open) throw new Error('load before open');
      return runLoad(open.op, {
        concurrency: connections,
        durationMs: command.durationMs,
        ops: command.maxOps,
      });
    case 'close':
      await closeOpen();
      return null;
  }
}

process.on('message', (command: LoadCommand) => {
  handle(command).then(
    (value) => process.send!({ id: command.id, ok: true, value } as LoadReply),
    (err: unknown) =>
      process.send!({
        id: command.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } as LoadReply),
  );
});
process.on('disconnect', () => {
  void closeOpen().finally(() => process.exit(0));
});
