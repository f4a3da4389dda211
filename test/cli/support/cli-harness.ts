import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LedgerClient } from '@operation-ledger/client';
import { runCli } from '../../../packages/cli/src/program.js';
import { startTestLedger, type TestLedger } from '../../support/test-ledger.js';

/** A captured run of the CLI. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout as NDJSON. */
  readonly json: () => any[];
}

/** A ledger for CLI tests, a scratch directory (config file, inputs, results) and a worker SDK client. */
export interface CliWorld {
  readonly ledger: TestLedger;
  readonly dir: string;
  /** The worker SDK with the root key, to put operations in the states a test needs. */
  readonly sdk: LedgerClient;
  /** Runs `ledger …args` in-process against the ledger with `env` overrides (token: the root key). */
  cli(
    args: readonly string[],
    options?: { env?: Record<string, string | undefined>; stdin?: string },
  ): Promise<CliRun>;
  close(): Promise<void>;
}

/** A capture of one output stream (not a terminal, so no progress bars are drawn). */
function capture() {
  let text = '';
  return { stream: { write: (s: string) => ((text += s), true), isTTY: false }, text: () => text };
}

/** Starts a ledger on PostgreSQL and a scratch directory; `cli` defaults to the root key and `--tenant`-less runs. */
export async function startCliWorld(): Promise<CliWorld> {
  const ledger = await startTestLedger('postgres');
  const dir = await mkdtemp(join(tmpdir(), 'ledger-cli-'));
  const sdk = new LedgerClient({ baseUrl: ledger.url, token: ledger.rootToken });
  return {
    ledger,
    dir,
    sdk,
    async cli(args, options = {}) {
      const out = capture();
      const err = capture();
      const env = {
        LEDGER_URL: ledger.url,
        LEDGER_TOKEN: ledger.rootToken,
        LEDGER_CONFIG: join(dir, 'config.json'),
        ...options.env,
      };
      const code = await runCli(args, {
        stdout: out.stream,
        stderr: err.stream,
        stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
        env,
        cwd: dir,
      });
      const stdout = out.text();
      return {
        code,
        stdout,
        stderr: err.text(),
        json: () =>
          stdout
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
      };
    },
    async close() {
      await ledger.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until every read model has applied everything committed. */
export async function settled(world: CliWorld): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const p = await world.sdk.projections.status();
    const all = p.projections as { lag: { events: number } }[];
    if (all.length > 0 && all.every((x) => x.lag.events === 0)) return;
    if (Date.now() > deadline) throw new Error('read models did not catch up');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `OperationClaimed` events per decision stream, read from the store (every event, in pages). */
export async function claimsPerStream(ledger: TestLedger): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let after = -1n;
  for (;;) {
    const page = await ledger.store.readAll(after, 5_000);
    if (page.length === 0) return counts;
    for (const e of page)
      if (e.type === 'OperationClaimed') counts.set(e.streamName, (counts.get(e.streamName) ?? 0) + 1);
    after = page[page.length - 1]!.globalPosition;
  }
}

/** The key of a test operation in tenant `acme`. */
export const key = (subject: string, action = 'invoice.create') => ({
  tenant: 'acme',
  source: 'shop',
  action,
  subject,
});

/**
 * Puts an operation in `unknown`: claimed, a step started, then the worker reports the outcome
 * unknown (a timeout after the call was sent).
 */
export async function makeUnknown(world: CliWorld, subject: string, action?: string): Promise<string> {
  const claim = await world.sdk.worker.claim({
    key: key(subject, action),
    payload: { subject },
    workerId: 'w-test',
  });
  if (claim.kind !== 'acquired') throw new Error('expected an acquired claim');
  await world.sdk.worker.startStep(claim.operationId, 'create', claim.fencingToken);
  await world.sdk.worker.reportUnknown(claim.operationId, claim.fencingToken, 'billing timed out');
  return claim.operationId;
}
