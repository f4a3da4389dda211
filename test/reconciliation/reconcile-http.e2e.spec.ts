// The reconciliation routes' answers to bad input, missing rights and other tenants: every refusal
// is problem+json naming the field, and a refused upload leaves no run behind.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { ReconcileClient } from './support/reconcile-client.js';

let ledger: TestLedger;
let operator: ReconcileClient;
let auditor: ReconcileClient;
let other: ReconcileClient;
let small: TestLedger;

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  const mk = async (tenant: string, roles: ('operator' | 'auditor' | 'worker')[]) =>
    new ReconcileClient(ledger.url, (await ledger.createKey({ tenant, roles })).token);
  operator = await mk('acme', ['operator']);
  auditor = await mk('acme', ['auditor']);
  other = await mk('globex', ['operator']);
  process.env.LEDGER_RECONCILIATION_MAX_BYTES = '64';
  process.env.LEDGER_RECONCILIATION_TENANT_MAX_ROWS = '3';
  process.env.LEDGER_RECONCILIATION_TENANT_MAX_BYTES = '100';
  try {
    small = await startTestLedger('postgres');
  } finally {
    delete process.env.LEDGER_RECONCILIATION_MAX_BYTES;
    delete process.env.LEDGER_RECONCILIATION_TENANT_MAX_ROWS;
    delete process.env.LEDGER_RECONCILIATION_TENANT_MAX_BYTES;
  }
});
afterAll(async () => {
  await ledger?.close();
  await small?.close();
});

const CSV = 'id,reference\r\nREC-1,5f0c4e0a-2a43-5a43-9a43-000000000001\r\n';
const runs = async () => (await operator.get('/v1/tenants/acme/reconciliations')).body.items;

describe('uploads', () => {
  it('refuses a content type other than CSV or NDJSON with 415 naming Content-Type', async () => {
    const r = await operator.start('acme', {}, '{"id":1}', 'application/json');
    expect(r.status).toBe(415);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(r.body).toMatchObject({ code: 'unsupported-media-type', errors: [{ field: 'Content-Type' }] });
  });

  it('refuses a charset other than UTF-8 (or its US-ASCII subset) with 415 naming Content-Type', async () => {
    const before = (await runs()).length;
    const r = await operator.start('acme', {}, CSV, 'text/csv; charset=latin1');
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ code: 'unsupported-media-type', errors: [{ field: 'Content-Type' }] });
    expect(r.body.detail).toMatch(/latin1/);
    expect((await runs()).length).toBe(before);
    for (const type of ['text/csv; charset=UTF-8', 'text/csv;charset="us-ascii"']) {
      expect((await operator.start('acme', {}, CSV, type)).status).toBe(202);
    }
  });

  it('refuses a body that claims gzip but is not with 415 naming Content-Encoding', async () => {
    const r = await operator.start('acme', {}, CSV, 'text/csv', false);
    expect(r.status).toBe(202);
    const bad = await fetch(`${ledger.url}/v1/tenants/acme/reconciliations`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${operator.token}`,
        'content-type': 'text/csv',
        'content-encoding': 'gzip',
      },
      body: CSV,
    });
    expect(bad.status).toBe(415);
    expect(await bad.json()).toMatchObject({ errors: [{ field: 'Content-Encoding' }] });
  });

  it('names every unreadable row as rows[line].column with 422 and keeps no run', async () => {
    const before = (await runs()).length;
    const r = await operator.start('acme', {}, 'id,reference\r\n,abc\r\nREC-2,x\r\n,y\r\n', 'text/csv');
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('invalid-upload');
    expect(r.body.errors.map((e: any) => e.field)).toEqual(['rows[1].id', 'rows[3].id']);
    expect((await runs()).length).toBe(before);
  });

  it('names the line of a malformed CSV record and of a non-object NDJSON line', async () => {
    const csv = await operator.start('acme', {}, 'id,reference\r\nA,1\r\nB,2,3\r\n', 'text/csv');
    expect(csv.status).toBe(422);
    expect(csv.body.errors[0].field).toBe('rows[2]');
    const nd = await operator.start('acme', {}, '{"id":"A"}\n[1]\n', 'application/x-ndjson');
    expect(nd.status).toBe(422);
    expect(nd.body.errors).toEqual([{ field: 'rows[2]', message: 'each line must be a JSON object' }]);
  });

  it('answers 413 past the byte limit, counted after decompression', async () => {
    const big = 'id,reference\r\n' + Array.from({ length: 20 }, (_, i) => `REC-${i},ref-${i}`).join('\r\n');
    const client = new ReconcileClient(small.url, small.rootToken);
    const r = await client.start('acme', {}, big, 'text/csv', true);
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'payload-too-large', errors: [{ field: 'body' }] });
  });

  it("answers 413 naming the tenant's bound on stored rows, and on stored bytes, keeping nothing of the refused upload", async () => {
    const client = new ReconcileClient(small.url, small.rootToken);
    const kept = { awaitSource: 'true' }; // a waiting run keeps its rows
    const rows = await client.start('acme', kept, 'id,reference\r\n1,a\r\n2,b\r\n3,c\r\n4,d\r\n', 'text/csv');
    expect(rows.status).toBe(413);
    expect(rows.body).toMatchObject({ code: 'payload-too-large', errors: [{ field: 'body' }] });
    expect(rows.body.detail).toMatch(/at most 3 rows .*LEDGER_RECONCILIATION_TENANT_MAX_ROWS/);
    expect((await client.get('/v1/tenants/acme/reconciliations')).body.items).toEqual([]);

    expect((await client.start('globex', kept, 'id,reference\r\nR-1,a\r\n', 'text/csv')).status).toBe(202);
    const bytes = await client.start('globex', kept, 'id,reference\r\nR-2,b\r\n', 'text/csv');
    expect(bytes.status).toBe(413);
    expect(bytes.body.detail).toMatch(/at most 100 bytes .*LEDGER_RECONCILIATION_TENANT_MAX_BYTES/);
    expect((await client.get('/v1/tenants/globex/reconciliations')).body.items).toHaveLength(1);
  });

  it("holds the tenant's bound when uploads race: concurrent uploads never keep more than it together", async () => {
    // one row fits the 100-byte bound, two do not: exactly one of the racing uploads may be kept
    const client = new ReconcileClient(small.url, small.rootToken);
    const kept = { awaitSource: 'true' }; // a waiting run keeps its rows
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        client.start('initech', kept, `id,reference\r\nR-${i},a\r\n`, 'text/csv'),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 413, 413, 413]);
    const items = (await client.get('/v1/tenants/initech/reconciliations')).body.items as {
      destinationRows: number;
    }[];
    expect(items.reduce((n, r) => n + r.destinationRows, 0)).toBe(1);
  });

  it('refuses bad parameters with 400 naming them', async () => {
    const to = await operator.start(
      'acme',
      { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      CSV,
      'text/csv',
    );
    expect(to.status).toBe(400);
    expect(to.body.errors).toEqual([{ field: 'to', message: 'to must be after from' }]);
    const match = await operator.start('acme', { match: 'email' }, CSV, 'text/csv');
    expect(match.status).toBe(400);
    expect(match.body.errors[0].field).toBe('match');
    const compare = await operator.start('acme', { compare: 'total=amount' }, CSV, 'text/csv');
    expect(compare.body.errors[0]).toMatchObject({ field: 'compare' });
    const escape = await operator.start('acme', { compare: 'x=/~9' }, CSV, 'text/csv');
    expect(escape.status).toBe(400);
    expect(escape.body.errors).toEqual([{ field: 'compare', message: expect.stringMatching(/~0 or ~1/) }]);
    const date = await operator.start('acme', { from: '2026-01-01' }, CSV, 'text/csv');
    expect(date.status).toBe(400);
    expect(date.body.errors[0].field).toBe('from');
    const unknown = await operator.start('acme', { colour: 'red' }, CSV, 'text/csv');
    expect(unknown.status).toBe(400);
  });
});

describe('rights and tenants', () => {
  it('keeps auditors read-only: uploads need the operator role (403), reading runs does not', async () => {
    const before = (await runs()).length;
    for (const r of [
      await auditor.start('acme', {}, CSV, 'text/csv'),
      await auditor.start('acme', { apply: 'evidence' }, CSV, 'text/csv'),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('forbidden');
      expect(r.body.detail).toMatch(/operator/);
    }
    const waiting = await operator.start('acme', { awaitSource: 'true' }, CSV, 'text/csv');
    const source = await auditor.source('acme', waiting.body.id, {}, 'id\n1\n', 'text/csv');
    expect(source.status).toBe(403);
    expect((await runs()).length).toBe(before + 1);
    expect((await auditor.get('/v1/tenants/acme/reconciliations')).status).toBe(200);
  });

  it("refuses another tenant's route with 403 and hides its runs behind 404", async () => {
    const mine = await operator.start('acme', {}, CSV, 'text/csv');
    expect((await other.start('acme', {}, CSV, 'text/csv')).status).toBe(403);
    expect((await other.get(`/v1/tenants/acme/reconciliations/${mine.body.id}`)).status).toBe(403);
    const hidden = await other.get(`/v1/tenants/globex/reconciliations/${mine.body.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get('content-type')).toContain('application/problem+json');
    expect(hidden.body).toEqual({
      type: expect.stringMatching(/\/not-found$/),
      title: expect.any(String),
      status: 404,
      detail: `no reconciliation ${mine.body.id} in this tenant`,
      code: 'not-found',
    });
    // The source upload to a run of another tenant gets the same 404, not a 409 naming its state.
    const upload = await other.source('globex', mine.body.id, {}, '{"source":"s"}\n', 'application/x-ndjson');
    expect([upload.status, upload.headers.get('content-type')]).toEqual([
      404,
      hidden.headers.get('content-type'),
    ]);
    expect(upload.body).toEqual(hidden.body);
    expect((await other.get('/v1/tenants/globex/reconciliations')).body.items).toEqual([]);
  });

  it('validates the run id (400) and refuses a source upload to a run not waiting for one (409)', async () => {
    const bad = await operator.get('/v1/tenants/acme/reconciliations/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('id');
    const run = await operator.start('acme', {}, CSV, 'text/csv');
    const src = await operator.source(
      'acme',
      run.body.id,
      {},
      '{"source":"s","action":"a","subject":"x"}\n',
      'application/x-ndjson',
    );
    expect(src.status).toBe(409);
    expect(src.body.code).toBe('not-awaiting-source');
    expect(src.headers.get('content-type')).toContain('application/problem+json');
    expect(src.body).toEqual({
      type: expect.stringMatching(/\/not-awaiting-source$/),
      title: 'The reconciliation does not wait for source intents',
      status: 409,
      detail: expect.stringMatching(
        new RegExp(
          `^reconciliation ${run.body.id} is (queued|running|completed); source intents are taken only ` +
            'while it is awaiting_source \\(create it with awaitSource=true\\)$',
        ),
      ),
      code: 'not-awaiting-source',
    });
  });

  it('names the source row and key part a template cannot fill', async () => {
    const run = await operator.start(
      'acme',
      { action: 'invoice.create', awaitSource: 'true' },
      CSV,
      'text/csv',
    );
    const src = await operator.source(
      'acme',
      run.body.id,
      { sourceTemplate: 'shop', subjectTemplate: 'order:{id}' },
      '{"id":1}\n{"no":2}\n{"id":"3 "}\n',
      'application/x-ndjson',
    );
    expect(src.status).toBe(422);
    expect(src.body.errors.map((e: any) => e.field)).toEqual(['rows[2].id', 'rows[3].subject']);
    // the run still waits for a good upload
    expect((await operator.get(`/v1/tenants/acme/reconciliations/${run.body.id}`)).body.status).toBe(
      'awaiting_source',
    );
  });
});
