/* global fetch, setTimeout, AbortSignal */
// A webhook worker PROCESS of the chaos demo (plain ESM, spawned by demo/chaos/worker-fleet.ts).
// It runs each delivery it takes from the parent's work queue through the worker SDK — the
// built package `@operation-ledger/client` (packages/client/dist; worker-fleet.ts builds it
// when it is missing or stale): runOnce claims the key, the step `create-ticket` posts the
// ticket with the step's provider idempotency key, and the SDK confirms or reports Unknown. A
// short lease and no renewals, so a SIGKILL leaves work to the ledger's sweeper. At every kill
// point it writes `{"at", "tag", ...}` on stdout and waits for a `go` line on stdin: the parent
// either answers `go` or SIGKILLs it.
// Env: QUEUE_URL, LEDGER_URL, LEDGER_AUTHORIZATION (optional), TICKETS_URL, WORKER_ID, LEASE_MS,
// TICKET_TIMEOUT_MS, IN_PROGRESS_BACKOFF_MS.
import { createInterface } from 'node:readline';
import {
  AwaitingRecoveryError,
  InProgressError,
  JobFailedError,
  LedgerClient,
  PayloadConflictError,
} from '@operation-ledger/client';

const env = process.env;
const WORKER_ID = env.WORKER_ID;
const LEASE_MS = Number(env.LEASE_MS);
const TICKET_TIMEOUT_MS = Number(env.TICKET_TIMEOUT_MS);
const IN_PROGRESS_BACKOFF_MS = Number(env.IN_PROGRESS_BACKOFF_MS);
const STEP = 'create-ticket';
const POLL_MS = 40;
const NACK_DELAY_MS = 200;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ledger = new LedgerClient({
  baseUrl: env.LEDGER_URL,
  headers: env.LEDGER_AUTHORIZATION ? { authorization: env.LEDGER_AUTHORIZATION } : {},
});

// The parent's answers to kill points, in order. Stdin closing means the parent is gone.
const waiting = [];
const stdin = createInterface({ input: process.stdin });
stdin.on('line', (line) => {
  if (line === 'go') waiting.shift()?.();
});
stdin.on('close', () => process.exit(0));

function checkpoint(at, tag, detail = {}) {
  process.stdout.write(`${JSON.stringify({ at, tag, ...detail })}\n`);
  return new Promise((resolve) => waiting.push(resolve));
}

async function queue(path, body = {}) {
  const res = await fetch(`${env.QUEUE_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ worker: WORKER_ID, ...body }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The ticket system call of the step: a created ticket's id, or an error (→ Unknown). */
async function createTicket(ticket, idempotencyKey) {
  const res = await fetch(`${env.TICKETS_URL}/tickets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(ticket),
    signal: AbortSignal.timeout(TICKET_TIMEOUT_MS),
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`ticket system answered ${res.status}`);
  return { id: (await res.json()).id, replayed: res.status === 200 };
}

/** One delivery through runOnce; → how to settle the message. */
async function handle(tag, delivery) {
  const { key, payload, ticket } = delivery.intent;
  await checkpoint('before-claim', tag);
  let destinationReplayed = false;
  const job = async (op) => {
    await checkpoint('after-claim', tag, { operationId: op.operationId, attempt: op.attempt });
    const ticketId = await op.step(STEP, async (providerKey) => {
      await checkpoint('after-step-start', tag);
      const created = await createTicket(ticket, providerKey);
      destinationReplayed = created.replayed;
      await checkpoint('after-ticket-created', tag, { ticketId: created.id });
      return created.id;
    });
    return { destinationRef: ticketId, outputs: { ticketId } };
  };
  for (;;) {
    try {
      const run = await ledger.runOnce(key, payload, job, {
        leaseMs: LEASE_MS,
        renewLease: false,
        workerId: WORKER_ID,
      });
      if (run.status === 'replayed') return { ack: true, outcome: 'replayed', operationId: run.operationId };
      await checkpoint('after-confirm', tag);
      return {
        ack: true,
        outcome: destinationReplayed ? 'created-replayed' : 'created',
        operationId: run.operationId,
      };
    } catch (err) {
      // Wait out the holder's lease, then a little more: the sweeper usually decides first.
      if (err instanceof InProgressError) {
        await sleep(err.retryAfterMs + IN_PROGRESS_BACKOFF_MS);
        continue;
      }
      // Unknown outcome: the recovery worker owns it now; acking is right (it re-queues if needed).
      if (err instanceof AwaitingRecoveryError) return { ack: true, outcome: 'awaiting-recovery' };
      if (err instanceof PayloadConflictError) return { ack: true, outcome: 'payload-conflict' };
      if (err instanceof JobFailedError && err.recorded === 'unknown') {
        return { ack: true, outcome: 'unknown-reported', operationId: err.operationId };
      }
      return { ack: false, outcome: `${err?.name ?? 'error'}-${err?.code ?? err?.recorded ?? ''}` };
    }
  }
}

for (;;) {
  const next = await queue('/next');
  if (next.status === 204) {
    await sleep(POLL_MS);
    continue;
  }
  if (next.status !== 200) process.exit(0); // declared gone by the parent
  const { tag, delivery } = next.body;
  let settlement;
  try {
    settlement = await handle(tag, delivery);
  } catch (err) {
    settlement = { ack: false, outcome: `error-${err?.name ?? 'unknown'}` };
  }
  const { ack, outcome, operationId } = settlement;
  if (ack) await queue('/ack', { tag, outcome, operationId });
  else await queue('/nack', { tag, outcome, delayMs: NACK_DELAY_MS });
}
