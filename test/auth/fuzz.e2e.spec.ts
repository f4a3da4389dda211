// Property-based fuzz (fast-check) over API keys and claim bodies, against the real app over
// loopback HTTP (keep-alive). Properties: the ledger never answers 5xx; a refused request never
// changes the store; only accepted claims write decision events. ≥ 10,000 generated requests.
import fc from 'fast-check';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../src/event-store/sql-executor.token.js';
import type { LedgerClient, TestResponse } from '../support/http-client.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

/** A guard against a hang, not a speed check: at load 12 on 2 cores a property run took over 120 s. */
const FUZZ_TIMEOUT_MS = 400_000;

let ledger: TestLedger;
let sql: SqlExecutor;
let sent = 0;
const keys: Record<string, LedgerClient> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  ledger = await startTestLedger('postgres', { maxPayloadBytes: 4096, maxBodyBytes: 64 * 1024 });
  sql = ledger.app.get<SqlExecutor>(SQL_EXECUTOR);
  const make = async (name: string, tenant: string, roles: any[]) => {
    const k = await ledger.createKey({ tenant, roles, name });
    keys[name] = k.client;
    tokens[name] = k.token;
    return k;
  };
  await make('acmeWorker', 'acme', ['worker']);
  await make('globexWorker', 'globex', ['worker']);
  await make('starWorker', '*', ['worker']);
  await make('acmeAuditor', 'acme', ['auditor', 'operator']);
  const revoked = await make('revoked', 'acme', ['worker']);
  await ledger.client.post(`/v1/admin/keys/${revoked.key.id}/revoke`);
  const rotated = await make('rotatedAway', 'acme', ['worker']);
  await ledger.client.post(`/v1/admin/keys/${rotated.key.id}/rotate`, { overlapMs: 0 });
}, 30_000);
afterAll(() => ledger.close());

async function counts(): Promise<{ decision: number; audit: number }> {
  const { rows } = await sql.query<{ decision: number; audit: number }>(
    `select count(*) filter (where stream_name not like 'audit-%')::int as decision,
            count(*) filter (where stream_name like 'audit-%')::int as audit
     from ledger_events`,
  );
  return { decision: Number(rows[0]!.decision), audit: Number(rows[0]!.audit) };
}

interface Fuzzed {
  readonly client: LedgerClient;
  readonly path: '/v1/claims' | '/v1/claims/batch';
  readonly body?: unknown;
  readonly raw?: string;
}

async function send(r: Fuzzed): Promise<TestResponse> {
  sent++;
  return r.raw !== undefined
    ? r.client.post(r.path, undefined, { raw: r.raw })
    : r.client.post(r.path, r.body);
}

/** Statuses of the single answer or of every batch slot. */
function outcomes(res: TestResponse): number[] {
  if (res.status === 200 && Array.isArray(res.body?.results))
    return res.body.results.map((s: any) => s.status);
  return [res.status];
}

// ---- generators -----------------------------------------------------------------------------

const nastyText = fc.constantFrom(
  '',
  ' a',
  'a ',
  'a\u0000b',
  'e\u0301',
  '\u202e',
  'x'.repeat(300),
  '\ud800',
  '🦄',
  'ÄÖÜ',
  '%2F',
  '../..',
);
const part = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'shop', 'invoice.create', 'order:1', 'Café', 'ORD-9') },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: nastyText },
);
const tenant = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('acme', 'globex', 'initech') },
  { weight: 1, arbitrary: fc.constantFrom('ACME', 'acme ', '*', '', 'acme\u0000') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const revision = fc.oneof(fc.constant(undefined), fc.constantFrom(1, 2, 0, -1, 1.5, 2 ** 31, '1', null));
const payload = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom({ big: 'x'.repeat(5000) }, { big: 'x'.repeat(70 * 1024) }, 'a\u0000b'),
  },
);
const claimBody = fc
  .record({
    key: fc.oneof(
      { weight: 12, arbitrary: fc.record({ tenant, source: part, action: part, subject: part, revision }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    ),
    payload,
    leaseMs: fc.oneof(fc.constant(undefined), fc.integer({ min: -10, max: 4_000_000 }), fc.constant('5000')),
    workerId: fc.oneof(fc.constant(undefined), part),
    extra: fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
  })
  .map(({ extra, ...b }) => {
    const body: Record<string, unknown> = Object.fromEntries(
      Object.entries(b).filter(([, v]) => v !== undefined),
    );
    if (extra !== undefined) body.leaseMS = extra;
    return body;
  });
const anyBody = fc.oneof(
  { weight: 8, arbitrary: claimBody },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const rawBody = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '{"key":',
    '{"payload": 12345678901234567890, "key": {}}',
    '{"a":1,"a":2}',
    '['.repeat(100),
    '{}',
    '{"payload":"\\ud800"}',
  ),
);

/** Credentials that can never pass: none, garbage, forged, revoked, rotated away. */
const badCredentials = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x') || 'x'),
  fc.stringMatching(/^olk_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/),
  fc.constantFrom('revoked', 'rotatedAway', 'flipped', 'truncated').map((k) => {
    if (k === 'flipped')
      return tokens.acmeWorker!.slice(0, -2) + (tokens.acmeWorker!.endsWith('AA') ? 'BB' : 'AA');
    if (k === 'truncated') return tokens.acmeWorker!.slice(0, -1);
    return tokens[k]!;
  }),
);

// ---- properties -----------------------------------------------------------------------------

describe('fuzz: refused requests change nothing', () => {
  /** A request that must be refused: bad key, missing role, or a tenant the key is not bound to. */
  const refused = fc.oneof(
    fc.record({ token: badCredentials, body: anyBody }).map(({ token, body }) => ({
      client: ledger.client.as(token),
      path: '/v1/claims' as const,
      body,
      expect: [401],
    })),
    anyBody.map((body) => ({
      client: keys.acmeAuditor!,
      path: '/v1/claims' as const,
      body,
      expect: [400, 403, 413],
    })),
    claimBody
      .filter((b: any) => b.key?.tenant !== 'acme')
      .map((body) => ({
        client: keys.acmeWorker!,
        path: '/v1/claims' as const,
        body,
        expect: [400, 403, 413],
      })),
    fc
      .array(
        claimBody.filter((b: any) => b.key?.tenant !== 'globex'),
        { minLength: 1, maxLength: 5 },
      )
      .map((claims) => ({
        client: keys.globexWorker!,
        path: '/v1/claims/batch' as const,
        body: { claims },
        expect: [200, 400, 413],
      })),
  );

  it(
    '10 concurrent bad requests at a time: all 4xx (batch slots too), the event log unchanged',
    async () => {
      const before = await counts();
      await fc.assert(
        fc.asyncProperty(fc.array(refused, { minLength: 10, maxLength: 10 }), async (requests) => {
          const answers = await Promise.all(requests.map(send));
          // One expectation per batch rather than per answer and slot (each jest `expect` builds
          // an error with its stack): the answers that break either rule, none of them.
          const wrong = answers.flatMap((res, i) =>
            requests[i]!.expect.includes(res.status) &&
            outcomes(res).every((s) => s === 400 || s === 401 || s === 403 || s === 413)
              ? []
              : [{ expected: requests[i]!.expect, status: res.status, slots: outcomes(res) }],
          );
          expect(wrong).toEqual([]);
        }),
        { numRuns: 500 },
      );
      expect(await counts()).toEqual(before);
    },
    FUZZ_TIMEOUT_MS,
  );
});

describe('fuzz: arbitrary claims with real keys', () => {
  const request: fc.Arbitrary<Fuzzed> = fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .record({ who: fc.constantFrom('acmeWorker', 'starWorker', 'globexWorker'), body: anyBody })
        .map(({ who, body }) => ({ client: keys[who]!, path: '/v1/claims' as const, body })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          who: fc.constantFrom('acmeWorker', 'starWorker'),
          claims: fc.array(anyBody, { minLength: 1, maxLength: 6 }),
        })
        .map(({ who, claims }) => ({
          client: keys[who]!,
          path: '/v1/claims/batch' as const,
          body: { claims },
        })),
    },
    {
      weight: 1,
      arbitrary: rawBody.map((raw) => ({ client: keys.acmeWorker!, path: '/v1/claims' as const, raw })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ token: badCredentials, body: anyBody })
        .map(({ token, body }) => ({ client: ledger.client.as(token), path: '/v1/claims' as const, body })),
    },
  );

  it(
    'never 5xx; decision events grow by exactly the 201s, audit events by exactly the duplicates/conflicts',
    async () => {
      /**
       * The counts after the last batch when it passed: every event a request writes is written
       * before its answer (the exact counts below rely on it) and nothing runs between batches, so
       * they are the counts before the next batch; one query per batch saved. Cleared by every run,
       * so a failing run and fast-check's shrinking after it count afresh.
       */
      let afterLastBatch: { decision: number; audit: number } | undefined;
      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 8, maxLength: 8 }), async (requests) => {
          const before = afterLastBatch ?? (await counts());
          afterLastBatch = undefined;
          const answers = (await Promise.all(requests.map(send))).flatMap(outcomes);
          const after = await counts();
          expect(answers.filter((s) => s >= 500)).toEqual([]);
          const acquired = answers.filter((s) => s === 201).length;
          const audited = answers.filter((s) => s === 200 || s === 409 || s === 422).length;
          expect(after.decision - before.decision).toBe(acquired);
          expect(after.audit - before.audit).toBe(audited);
          afterLastBatch = after;
        }),
        { numRuns: 650 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});

it('sent at least 10,000 generated requests', () => {
  expect(sent).toBeGreaterThanOrEqual(10_000);
});
