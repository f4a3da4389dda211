// Every-route fuzz: requests generated from the OpenAPI
// document at /docs-json over ALL its routes — wrong types, missing and extra fields, huge strings,
// unicode edges, numbers like 1e309 and -0, odd path parameters, raw non-JSON bodies, duplicated
// query parameters, every kind of key. Properties: never a 5xx, and a refused request changes
// nothing (changes to the event log, API keys and reconciliations are counted around every batch).
// LEDGER_FUZZ_REQUESTS sets the count (6 000 here; `npm run fuzz` sends 100 000).
import fc from 'fast-check';
import { randomBytes, randomUUID } from 'node:crypto';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../src/event-store/sql-executor.token.js';
import { exchange } from '../support/http-client.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import {
  anyValue,
  nastyString,
  rawBodies,
  RawNumber,
  toJsonText,
  unicodeEdge,
  valueFor,
} from './fuzz-values.js';
import { routesOf, type Route } from './openapi-routes.js';

const REQUESTS = Number(process.env['LEDGER_FUZZ_REQUESTS'] ?? 6_000);
/**
 * CI replays one fixed sequence (a regression still fails it; a new input found by a random run
 * is fixed, not met first on a submission); `LEDGER_FUZZ_SEED` replays a reported failure, and
 * outside CI (and in `npm run fuzz`) every run draws a new seed.
 */
const SEED = process.env['LEDGER_FUZZ_SEED']
  ? Number(process.env['LEDGER_FUZZ_SEED'])
  : process.env['CI']
    ? 20_261_201
    : undefined;
const BATCH = 10;
/** Refusals that must leave everything as it was. 409/422 may record an audit event (a prevented duplicate). */
const REFUSED = new Set([400, 401, 403, 404, 405, 406, 411, 413, 414, 415, 429, 431]);

let ledger: TestLedger;
let sql: SqlExecutor;
let routes: Route[];
/**
 * Routes left out: a backup copies the whole database (about a second each, some twenty per run)
 * and takes no input to fuzz; test/backup/backup-route.e2e.spec.ts checks who may take one.
 */
const NOT_FUZZED = new Set(['POST /v1/admin/backup']);
const tokens: Record<string, string> = {};
const operationIds: string[] = [];
const sacrificialKeyIds: string[] = [];
const statuses = new Map<string, Map<number, number>>();
let sent = 0;
let checkedBatches = 0;

beforeAll(async () => {
  ledger = await startTestLedger('pglite');
  sql = ledger.app.get<SqlExecutor>(SQL_EXECUTOR);
  await sql.exec(CHANGE_COUNTERS);
  tokens['root'] = ledger.rootToken;
  for (const [name, tenant, roles] of [
    ['acmeWorker', 'acme', ['worker']],
    ['acmeOperator', 'acme', ['operator', 'auditor']],
    ['globexAdmin', 'globex', ['admin']],
    ['starAuditor', '*', ['auditor']],
  ] as const) {
    tokens[name] = (await ledger.createKey({ tenant, roles: [...roles], name })).token;
  }
  for (let i = 0; i < 3; i++) {
    sacrificialKeyIds.push((await ledger.createKey({ tenant: 'acme', roles: ['worker'] })).key.id);
  }
  const worker = ledger.client.as(tokens['acmeWorker']);
  for (const subject of ['open', 'done', 'stepped']) {
    const claim = await worker.claim(
      { tenant: 'acme', source: 'fuzz', action: 'invoice.create', subject },
      { subject },
    );
    operationIds.push(claim.body.operationId);
    if (subject === 'done')
      await worker.op(claim.body.operationId, 'confirm', { fencingToken: 1, destinationRef: 'R-1' });
    if (subject === 'stepped')
      await worker.op(claim.body.operationId, 'steps/charge/start', { fencingToken: 1 });
  }
  routes = routesOf((await ledger.client.get('/docs-json')).body).filter(
    (r) => !NOT_FUZZED.has(`${r.method} ${r.path}`),
  );
}, 60_000);
afterAll(() => ledger.close());

interface Snapshot {
  decision: number;
  audit: number;
  keys: number;
  reconciliations: number;
}

/**
 * Counters of every change to the state a refused request must leave alone, kept by triggers in
 * the same transaction as the change: rows of the event log inserted, updated or deleted (audit
 * streams apart), of API keys inserted, updated or deleted, and the number of reconciliations
 * (+1 created, −1 deleted: a refused upload may open its row while it reads the body and delete it
 * when a row turns out unreadable — seed 86868797 — which leaves the table as it was; their
 * progress, updated by a running job after an accepted request, is not counted, nor did the count
 * of rows compared before). Any other such change moves a counter, even one a count or digest
 * would miss (an insert and a delete, an update of a column left out of a digest), and a snapshot
 * reads one row instead of scanning three tables: about 0.7 instead of 2–6 ms of PGlite per batch.
 */
const CHANGE_COUNTERS = `
  create table fuzz_changes (decision int not null, audit int not null, keys int not null, reconciliations int not null);
  insert into fuzz_changes values (0, 0, 0, 0);
  create function fuzz_count_change() returns trigger language plpgsql as $$
  begin
    if tg_table_name = 'ledger_api_keys' then
      update fuzz_changes set keys = keys + 1;
    elsif tg_table_name = 'ledger_reconciliations' then
      update fuzz_changes set reconciliations = reconciliations + case tg_op when 'DELETE' then -1 else 1 end;
    elsif tg_level = 'STATEMENT' then -- truncate of the event log
      update fuzz_changes set decision = decision + 1;
    elsif tg_op = 'DELETE' and old.stream_name like 'audit-%' or tg_op <> 'DELETE' and new.stream_name like 'audit-%' then
      update fuzz_changes set audit = audit + 1;
    else
      update fuzz_changes set decision = decision + 1;
    end if;
    return null;
  end $$;
  create trigger fuzz_events after insert or update or delete on ledger_events
    for each row execute function fuzz_count_change();
  create trigger fuzz_keys after insert or update or delete on ledger_api_keys
    for each row execute function fuzz_count_change();
  create trigger fuzz_reconciliations after insert or delete on ledger_reconciliations
    for each row execute function fuzz_count_change();
  create trigger fuzz_truncate after truncate on ledger_events
    for each statement execute function fuzz_count_change();
  create trigger fuzz_truncate after truncate on ledger_api_keys
    for each statement execute function fuzz_count_change();
  create trigger fuzz_truncate after truncate on ledger_reconciliations
    for each statement execute function fuzz_count_change();`;

/** The change counters ({@link CHANGE_COUNTERS}): one row, one query. */
async function snapshot(): Promise<Snapshot> {
  const { rows } = await sql.query<Snapshot>(
    'select decision, audit, keys, reconciliations from fuzz_changes',
  );
  return rows[0]!;
}

/**
 * The state after the last batch when that batch was checked and changed nothing: nothing runs
 * between two batches (background jobs are off; fast-check only draws the next batch), so it is
 * also the state before the next one, and one query per batch is saved. After a batch that
 * changed something (an accepted write, an audit event) the next batch takes its own snapshot,
 * as any asynchronous effect of those writes must not count against it. Taken (cleared) by every
 * run, so a failing run and fast-check's shrinking after it always start from a fresh snapshot.
 */
let unchangedAfterLastBatch: Snapshot | undefined;

const pathValue: Record<string, fc.Arbitrary<string>> = {
  operationId: fc.oneof(
    fc.constantFrom(...['open', 'done', 'stepped'].map((_, i) => i)).map((i) => operationIds[i]!),
    fc.uuid(),
  ),
  tenant: fc.constantFrom('acme', 'globex', '*', 'ACME', 'initech'),
  keyId: fc.oneof(
    fc.constantFrom(0, 1, 2).map((i) => sacrificialKeyIds[i]!),
    fc.constant(randomBytes(12).toString('hex')),
  ),
  name: fc.constantFrom('operations', 'metrics', 'conflicts', 'nope'),
  action: fc.constantFrom('invoice.create', 'ticket.open'),
  step: fc.constantFrom('charge', 'fetch'),
  id: fc.constant(randomUUID()),
};

/** Percent-encodings of the long strings drawn (a few constants, up to 1 MB, met again and again). */
const encodedLong = new Map<string, string>();

/**
 * encodeURIComponent of a string whose lone surrogates became U+FFFD (a URL carries bytes), by
 * `toWellFormed` (one native pass; ES2024, in Node 20 but not in this project's `lib`). A long
 * string is encoded once and then taken from {@link encodedLong}.
 */
function enc(s: string): string {
  if (s.length < 256) return encodeURIComponent((s as WellFormable).toWellFormed());
  let encoded = encodedLong.get(s);
  if (encoded === undefined) {
    encoded = encodeURIComponent((s as WellFormable).toWellFormed());
    if (encodedLong.size >= 16) encodedLong.clear(); // a query value that holds one, rarely
    encodedLong.set(s, encoded);
  }
  return encoded;
}
type WellFormable = string & { toWellFormed(): string };

const oddPath = fc.oneof(
  nastyString,
  unicodeEdge,
  fc.constantFrom(
    '..',
    '.',
    '%',
    '%zz',
    '%ED%A0%80',
    '%C0%AF',
    '%FF',
    '-0',
    '1e309',
    'NaN',
    '\u0000',
    ' ',
    'x'.repeat(3000),
  ),
);

/** Everything needed to send one request. */
interface FuzzRequest {
  readonly route: Route;
  readonly url: string;
  readonly init: { method: string; headers: Record<string, string>; body?: string };
}

function requestFor(route: Route): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(
    ...route.pathParams.map((p) =>
      fc.oneof(
        { weight: 4, arbitrary: (pathValue[p] ?? fc.constant('x')).map(enc) },
        { weight: 2, arbitrary: oddPath.map(enc) },
        { weight: 1, arbitrary: oddPath },
      ),
    ),
  );
  const query = fc.array(
    fc.oneof(
      ...route.query.map((q) =>
        fc.tuple(
          fc.constant(q.name),
          valueFor(q.schema).map((v) =>
            v instanceof RawNumber ? v.text : typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
          ),
        ),
      ),
      fc.tuple(fc.constantFrom('unknown', 'limit', 'cursor', '__proto__'), fc.string({ maxLength: 8 })),
    ),
    { maxLength: 4 },
  );
  const body = route.body
    ? fc.oneof(
        { weight: 8, arbitrary: valueFor(route.body).map(toJsonText) },
        { weight: 1, arbitrary: rawBodies },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: rawBodies },
        { weight: 1, arbitrary: anyValue.map(toJsonText) },
      );
  const token = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...Object.keys(tokens)).map((k) => tokens[k]!) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'olk_x', `olk_${'0'.repeat(24)}_${'A'.repeat(43)}`, 'Bearer'),
    },
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'text/plain',
    'application/json; charset=latin1',
    'text/csv',
    '',
  );
  const lastEventId = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('0', '-1', '1e309', 'abc', '99999999999999999999'),
    unicodeEdge,
  );
  return fc.record({ params, query, body, token, contentType, lastEventId }).map((r) => {
    let path = route.path;
    route.pathParams.forEach((p, i) => (path = path.replace(`{${p}}`, r.params[i]!)));
    const qs = r.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
    const headers: Record<string, string> = {};
    if (r.token) headers['authorization'] = `Bearer ${r.token}`;
    if (route.sse && r.lastEventId !== undefined) headers['last-event-id'] = enc(r.lastEventId);
    const withBody = route.method !== 'GET' && route.method !== 'HEAD' && r.body !== undefined;
    if (withBody && r.contentType) headers['content-type'] = r.contentType;
    return {
      route,
      url: `${ledger.url}${path}${qs ? `?${qs}` : ''}`,
      init: { method: route.method, headers, ...(withBody ? { body: r.body } : {}) },
    };
  });
}

async function send(request: FuzzRequest): Promise<number> {
  sent++;
  try {
    // A live feed answered 200 ends at its head: the status is enough.
    const { status } = await exchange(request.url, request.init, {
      stopAt: (answered) => request.route.sse && answered === 200,
      timeoutMs: 30_000,
    });
    const key = `${request.route.method} ${request.route.path}`;
    const counts = statuses.get(key) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    statuses.set(key, counts);
    return status;
  } catch (error) {
    throw new Error(`${request.init.method} ${request.url.slice(0, 200)}: ${String(error)}`);
  }
}

it(
  `sends ${REQUESTS} generated requests over every route: never 5xx, refusals change nothing`,
  async () => {
    // Each route's arbitrary built once, not again for every request drawn (fast-check's chain
    // calls its function per value); arbitraries are stateless, so the values drawn are the same.
    const perRoute = new Map(routes.map((route) => [route, requestFor(route)]));
    const anyRequest = fc.constantFrom(...routes).chain((route) => perRoute.get(route)!);
    await fc.assert(
      fc.asyncProperty(fc.array(anyRequest, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const before = unchangedAfterLastBatch ?? (await snapshot());
        unchangedAfterLastBatch = undefined;
        const answers = await Promise.all(batch.map(send));
        const after = await snapshot();
        answers.forEach((status, i) => {
          if (status >= 500)
            throw new Error(
              `${status} for ${batch[i]!.init.method} ${batch[i]!.url.slice(0, 300)} body ${String(batch[i]!.init.body).slice(0, 300)}`,
            );
        });
        const accepted = answers.some((s, i) => s < 400 && batch[i]!.route.method !== 'GET');
        if (accepted) return;
        checkedBatches++;
        const business = answers.some((s) => !REFUSED.has(s) && s >= 400);
        expect({ ...after, audit: business ? before.audit : after.audit }).toEqual(before);
        if (after.audit === before.audit) unchangedAfterLastBatch = after;
      }),
      { numRuns: Math.ceil(REQUESTS / BATCH), ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    const covered = routes.filter((r) => statuses.has(`${r.method} ${r.path}`));
    expect(covered.map((r) => `${r.method} ${r.path}`)).toEqual(routes.map((r) => `${r.method} ${r.path}`));
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(checkedBatches).toBeGreaterThan(REQUESTS / BATCH / 4);
    console.log(
      `every-route fuzz: ${sent} requests over ${routes.length} routes; ${checkedBatches} batches of refusals checked unchanged`,
    );
  },
  // A guard against a hang, not a speed check: at load 12 on 2 cores 10 000 requests took over 150 s.
  Math.max(300_000, REQUESTS * 45),
);
