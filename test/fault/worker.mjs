/* global fetch, setInterval */
// A worker process for the SIGKILL fault test (plain ESM, no build). It talks HTTP only: to the
// ledger and to a destination. It announces every step boundary on stdout as `boundary <name>`;
// when the boundary equals STOP_AT it hangs there until the test SIGKILLs it.
// Env: LEDGER_URL, TOKEN, DEST_URL, KEY (JSON operation key), REF (external reference), STOP_AT.
const { LEDGER_URL, TOKEN, DEST_URL, KEY, REF, STOP_AT } = process.env;
const key = JSON.parse(KEY);

async function call(url, method = 'GET', body) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function boundary(name) {
  process.stdout.write(`boundary ${name}\n`);
  if (name === STOP_AT) await new Promise(() => setInterval(() => {}, 1000)); // wait for SIGKILL
}

function finish(outcome) {
  process.stdout.write(`outcome ${JSON.stringify(outcome)}\n`);
  process.exit(0);
}

const claim = await call(`${LEDGER_URL}/v1/claims`, 'POST', {
  key,
  payload: { ref: REF },
  leaseMs: 5000,
  workerId: `pid-${process.pid}`,
});
if (claim.status !== 201) finish({ claim: claim.status, code: claim.body?.code ?? null });
const { operationId, fencingToken, completedSteps } = claim.body;
const op = (path, body) =>
  call(`${LEDGER_URL}/v1/operations/${operationId}/${path}`, 'POST', { fencingToken, ...body });
await boundary('after-claim');

let recordId;
if (completedSteps.some((s) => s.step === 'create')) {
  // An earlier attempt finished the effect: take its recorded output instead of repeating it.
  const status = await call(`${LEDGER_URL}/v1/operations/${operationId}`);
  recordId = status.body.steps.find((s) => s.step === 'create').outputs.recordId;
} else {
  const started = await op('steps/create/start');
  if (started.status !== 200) finish({ claim: 201, step: started.status });
  await boundary('after-step-start');
  const created = await call(`${DEST_URL}/records`, 'POST', {
    externalRef: REF,
    idempotencyKey: started.body.providerIdempotencyKey,
  });
  recordId = created.body.id;
  await boundary('after-effect');
  await op('steps/create/complete', { outputs: { recordId } });
  await boundary('after-step-complete');
}
const confirmed = await op('confirm', { destinationRef: recordId });
await boundary('after-confirm');
finish({ claim: 201, attempt: fencingToken, confirm: confirmed.status, recordId });
