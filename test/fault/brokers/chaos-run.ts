import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { LedgerClient, operationIdOf, type UnknownOperation } from '@operation-ledger/client';
import { startTestLedger, type TestLedger } from '../../support/test-ledger.js';
import { ConsumerPool, type KillMoment } from './consumer-pool.js';
import { startDestination, type Destination } from './destination.js';

/** What a broker driver does for the chaos run (one per broker, in its fault file). */
export interface BrokerDriver {
  readonly broker: 'bullmq' | 'amqp' | 'jetstream';
  /** The unique queue / stream name the consumers read. */
  readonly queue: string;
  /** Publishes one message per id with the id as the broker's message id and `{ n }` as body. */
  publish(ids: readonly string[]): Promise<void>;
  /** `onReleased` of recovery: the adapter's requeueReleased. */
  requeue(op: UnknownOperation): Promise<void>;
  /** Messages not yet acked (ready, delayed or in flight, where the broker tells). */
  pending(): Promise<number>;
}

export interface ChaosFigures {
  readonly broker: string;
  readonly messages: number;
  readonly kills: Record<KillMoment, number>;
  readonly notSent: number;
  readonly lateAnswers: number;
  readonly verdicts: Record<string, number>;
  readonly recovery: {
    found: number;
    notFound: number;
    requeued: number;
    skipped: number;
    errors: number;
    lastError?: string;
  };
  /** States of the operations not confirmed at the end (state → count). */
  readonly notConfirmed: Record<string, number>;
  readonly destinationRecords: number;
  readonly keysWithTwoRecords: number;
  readonly confirmed: number;
  readonly pendingAtEnd: number;
  readonly wallS: number;
}

export const OPERATION = { tenant: 'chaos', source: 'queue', action: 'invoice.create' };
const LEASE_MS = 6_000;
/** Recovery leaves an Unknown this young alone (a slow answer may still be on its way). */
const RECOVERY_MIN_AGE_MS = 5_000;

/** The SDK's build, which the consumer processes import (built by `pretest`; built here if absent). */
export function ensureClientBuild(): void {
  if (!existsSync('packages/client/dist/consumers/amqp.js')) {
    execFileSync('npm', ['run', 'build:client'], { stdio: 'ignore' });
  }
}

/** A ledger on the real clock (leases expire, the sweeper runs every 500 ms). */
export async function startRealTimeLedger(): Promise<{ ledger: TestLedger; stop(): Promise<void> }> {
  const ledger = await startTestLedger('postgres', { sweepIntervalMs: 500 });
  const follow = setInterval(() => {
    const behind = Date.now() - ledger.clock.now();
    if (behind > 0) ledger.clock.advance(behind);
  }, 20);
  return {
    ledger,
    stop: async () => {
      clearInterval(follow);
      await ledger.close();
    },
  };
}

/**
 * The chaos proof: `n` messages through `consumers` processes that SIGKILL themselves at random
 * moments (up to `killBudget` kills), a destination that saves then answers too late (5 %: after 5 s,
 * the consumer gives up after 3 s), steps
 * whose request is refused before it leaves (3 %), recovery by provider-key lookup every second
 * (its releases re-enqueued), until every operation is confirmed and every message acked — or
 * `deadlineMs` passed. Returns the figures; the caller asserts.
 */
export async function runChaos(
  driver: BrokerDriver,
  ledgerUrl: string,
  token: string,
  o: { n: number; consumers: number; killBudget: number; killP: number; deadlineMs: number },
  afterSettled?: (pool: ConsumerPool) => Promise<void>,
): Promise<ChaosFigures> {
  const started = Date.now();
  const deadline = started + o.deadlineMs;
  const destination = await startDestination(0.05, 5_000);
  const client = new LedgerClient({ baseUrl: ledgerUrl, token });
  const ids = Array.from({ length: o.n }, (_, i) => `m-${i}`);
  const recovery: ChaosFigures['recovery'] = { found: 0, notFound: 0, requeued: 0, skipped: 0, errors: 0 };
  const pool = new ConsumerPool(
    {
      BROKER: driver.broker,
      LEDGER_URL: ledgerUrl,
      TOKEN: token,
      DEST_URL: destination.url,
      QUEUE: driver.queue,
      OPERATION: JSON.stringify(OPERATION),
      NOT_SENT_P: '0.03',
      CLOSED_URL: await closedUrl(),
      LEASE_MS: String(LEASE_MS),
      REQUEST_TIMEOUT_MS: '3000',
    },
    o.consumers,
    o.killBudget,
    o.killP,
  );
  try {
    await driver.publish(ids);
    pool.start();
    let confirmed = 0;
    const states: Record<string, number> = {};
    while (Date.now() < deadline) {
      await recoverOnce(client, destination, driver, recovery);
      if (distinctKeys(destination) === o.n && (await driver.pending()) === 0) {
        confirmed = await countConfirmed(client, ids, states);
        if (confirmed === o.n) break;
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
    await pool.stop();
    if (afterSettled) await afterSettled(pool);
    confirmed = await countConfirmed(client, ids, states);
    const records = [...destination.records.values()];
    return {
      broker: driver.broker,
      messages: o.n,
      kills: { ...pool.kills },
      notSent: pool.notSent,
      lateAnswers: destination.lateAnswers(),
      verdicts: Object.fromEntries(pool.verdicts),
      recovery,
      destinationRecords: destination.total(),
      keysWithTwoRecords: records.filter((r) => r.length > 1).length,
      confirmed,
      notConfirmed: states,
      pendingAtEnd: await driver.pending(),
      wallS: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await pool.stop();
    await destination.close();
  }
}

/** A loopback URL nothing listens on (a port bound, then closed): connecting is refused. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return `http://127.0.0.1:${port}`;
}

function distinctKeys(destination: Destination): number {
  return destination.records.size;
}

async function recoverOnce(
  client: LedgerClient,
  destination: Destination,
  driver: BrokerDriver,
  tally: ChaosFigures['recovery'],
): Promise<void> {
  const report = await client.recover({
    tenant: OPERATION.tenant,
    lookup: async (op) => {
      if (Date.now() - Date.parse(op.since) < RECOVERY_MIN_AGE_MS) return null;
      const res = await fetch(`${destination.url}/records?providerKey=${op.providerKey('create')}`);
      const found = (await res.json()) as string[];
      return found.length > 0 ? { found: found[0]! } : { notFound: true };
    },
    onReleased: async (op) => {
      await driver.requeue(op);
      tally.requeued++;
    },
  });
  tally.found += report.found;
  tally.notFound += report.notFound;
  tally.errors += report.errors.length;
  tally.skipped += report.skipped;
  tally.lastError = report.errors[0] ? String(report.errors[0].error) : tally.lastError;
}

async function countConfirmed(
  client: LedgerClient,
  ids: readonly string[],
  states: Record<string, number>,
): Promise<number> {
  let confirmed = 0;
  for (const k of Object.keys(states)) delete states[k];
  for (const id of ids) {
    const status = await client.operations
      .get(operationIdOf({ ...OPERATION, subject: id }))
      .catch(() => ({ state: 'never-claimed' }));
    if (status.state === 'confirmed') confirmed++;
    else states[status.state] = (states[status.state] ?? 0) + 1;
  }
  return confirmed;
}
