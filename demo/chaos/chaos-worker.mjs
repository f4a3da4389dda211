/* global fetch, setTimeout, AbortSignal */
// A webhook worker PROCESS of the chaos demo (plain ESM, no build step; spawned by
// demo/chaos/worker-fleet.ts). It speaks HTTP only: to the parent's work queue, to the ledger
// and to the ticket system. For each delivery it takes from the queue it runs
//   claim → start step `create-ticket` → POST /tickets (Idempotency-Key = the step's
//   providerIdempotencyKey) → confirm → ack,
// with a short lease and no renewals. At every kill point it writes `{"at", "tag", ...}` on
// stdout and waits for a `go` line on stdin: the parent either answers `go` or SIGKILLs it.
// Env: QUEUE_URL, LEDGER_URL, LEDGER_AUTHORIZATION (optional), TICKETS_URL, WORKER_ID, LEASE_MS,
// TICKET_TIMEOUT_MS, IN_PROGRESS_BACKOFF_MS.
import { createInterface } from 'node:readline';

const env = process.env;
const WORKER_ID = env.WORKER_ID;
const LEASE_MS = Number(env.LEASE_MS);
const TICKET_TIMEOUT_MS = Number(env.TICKET_TIMEOUT_MS);
const IN_PROGRESS_BACKOFF_MS = Number(env.IN_PROGRESS_BACKOFF_MS);
const STEP = 'create-ticket';
const POLL_MS = 40;
const NACK_DELAY_MS = 200;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

async function http(method, url, body, headers = {}, timeoutMs) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const auth = env.LEDGER_AUTHORIZATION ? { authorization: env.LEDGER_AUTHORIZATION } : {};
const ledger = (path, body) => http('POST', `${env.LEDGER_URL}${path}`, body, auth);
const queue = (path, body = {}) => http('POST', `${env.QUEUE_URL}${path}`, { worker: WORKER_ID, ...body });

/** The problem code of a ledger refusal: the last segment of its `type`. */
function problem(res) {
  const type = typeof res.body?.type === 'string' ? res.body.type : '';
  return type.split('/').filter(Boolean).pop() ?? `http-${res.status}`;
}

/** claim, with waits while another holder's lease is live; → how to settle the message. */
async function handle(tag, delivery) {
  const { key, payload } = delivery.intent;
  await checkpoint('before-claim', tag);
  for (;;) {
    const claim = await ledger('/v1/claims', { key, payload, leaseMs: LEASE_MS, workerId: WORKER_ID });
    if (claim.status === 201) return perform(tag, delivery, claim.body);
    if (claim.status === 200) return { ack: true, outcome: 'replayed', operationId: claim.body.operationId };
    const code = problem(claim);
    if (claim.status === 409 && code === 'in-progress') {
      // Wait out the holder's lease, then a little more: the sweeper usually decides first.
      await sleep(Number(claim.body?.retryAfterMs ?? 1000) + IN_PROGRESS_BACKOFF_MS);
      continue;
    }
    // Unknown outcome: the recovery worker owns it now; acking is right (it re-queues if needed).
    if (claim.status === 409 && code === 'awaiting-recovery')
      return { ack: true, outcome: 'awaiting-recovery' };
    if (claim.status === 422) return { ack: true, outcome: 'payload-conflict' };
    return { ack: false, outcome: `claim-${claim.status}-${code}` };
  }
}

/** The holder's part: step start → ticket → confirm (or report Unknown when the ticket call fails). */
async function perform(tag, delivery, claim) {
  const { operationId, fencingToken } = claim;
  const op = (path, body) => ledger(`/v1/operations/${operationId}/${path}`, { fencingToken, ...body });
  await checkpoint('after-claim', tag, { operationId, attempt: claim.attempt });

  const started = await op(`steps/${STEP}/start`);
  if (started.status !== 200) return { ack: false, outcome: `start-${problem(started)}`, operationId };
  await checkpoint('after-step-start', tag);

  let created = null;
  let failure = '';
  try {
    created = await http(
      'POST',
      `${env.TICKETS_URL}/tickets`,
      delivery.intent.ticket,
      { 'idempotency-key': started.body.providerIdempotencyKey },
      TICKET_TIMEOUT_MS,
    );
  } catch (err) {
    failure = `ticket system call failed: ${err?.name ?? 'error'}`;
  }
  if (created === null || created.status >= 500) {
    const reason = failure || `ticket system answered ${created.status}`;
    const unknown = await op('unknown', { reason });
    return { ack: unknown.status === 200, outcome: 'unknown-reported', operationId };
  }
  if (created.status !== 200 && created.status !== 201) {
    return { ack: false, outcome: `ticket-${created.status}`, operationId };
  }
  const ticketId = created.body.id;
  await checkpoint('after-ticket-created', tag, { ticketId });

  const confirmed = await op('confirm', { destinationRef: ticketId, outputs: { ticketId } });
  if (confirmed.status !== 200) return { ack: false, outcome: `confirm-${problem(confirmed)}`, operationId };
  await checkpoint('after-confirm', tag);
  return { ack: true, outcome: created.status === 201 ? 'created' : 'created-replayed', operationId };
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
