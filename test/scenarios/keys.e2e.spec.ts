// Core scenarios C2 (Unicode spelling), C3 (case and whitespace), C4 (tenant isolation).
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
});
afterAll(() => ledger.close());

const key = (subject: string, tenant = 'acme') => ({
  tenant,
  source: 'shop',
  action: 'invoice.create',
  subject,
});

async function streamCount(): Promise<number> {
  const all = await ledger.store.readAll(-1n, 100_000);
  return new Set(all.filter((e) => e.type === 'OperationClaimed').map((e) => e.streamName)).size;
}

describe('C2 Unicode spelling of keys', () => {
  it('refuses a combining-mark spelling of a claimed precomposed key instead of opening a second operation', async () => {
    const before = await streamCount();
    const precomposed = await ledger.client.claim(key('Caf\u00e9-1'), { n: 1 });
    expect(precomposed.status).toBe(201);
    const combining = await ledger.client.claim(key('Cafe\u0301-1'), { n: 1 });
    expect(combining.status).toBe(400);
    expect(combining.body.code).toBe('invalid-key');
    expect(combining.body.errors).toEqual([expect.objectContaining({ field: 'key.subject' })]);
    expect(combining.headers.get('content-type')).toContain('application/problem+json');
    expect(await streamCount()).toBe(before + 1);
  });

  it('treats an ASCII look-alike and a full-width look-alike as different operations', async () => {
    const original = await ledger.client.claim(key('Caf\u00e9-2'), { n: 1 });
    const ascii = await ledger.client.claim(key('Cafe-2'), { n: 1 });
    const fullWidth = await ledger.client.claim(key('\uff23\uff41\uff46\u00e9-2'), { n: 1 });
    expect([original.status, ascii.status, fullWidth.status]).toEqual([201, 201, 201]);
    const ids = new Set([original.body.operationId, ascii.body.operationId, fullWidth.body.operationId]);
    expect(ids.size).toBe(3);
  });
});

describe('C3 case and whitespace', () => {
  it('ORD-9, ord-9 and Ord-9 are three operations', async () => {
    const answers = await Promise.all(
      ['ORD-9', 'ord-9', 'Ord-9'].map((s) => ledger.client.claim(key(s), { total: 10 })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.operationId)).size).toBe(3);
  });

  it.each([['ORD-9 '], [' ORD-9'], ['ORD-9\u00a0'], ['ORD-9\t'], ['ORD\u0000-9'], ['']])(
    'refuses %j with 400 naming key.subject and records nothing',
    async (subject) => {
      const before = (await ledger.store.readAll(-1n, 100_000)).length;
      const res = await ledger.client.claim(key(subject), { total: 10 });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid-key');
      expect(res.body.errors[0].field).toBe('key.subject');
      expect((await ledger.store.readAll(-1n, 100_000)).length).toBe(before);
    },
  );

  it('refuses a part over 256 bytes of UTF-8 (multi-byte characters count as bytes)', async () => {
    const res = await ledger.client.claim(key('\u00e9'.repeat(129)), {});
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual(expect.objectContaining({ field: 'key.subject' }));
  });
});

describe('C4 tenant isolation', () => {
  it('the same key and payload in two tenants are two operations that never see each other', async () => {
    const [a, b] = await Promise.all([
      ledger.client.claim(key('INV-1', 'tenant-a'), { amount: 5 }),
      ledger.client.claim(key('INV-1', 'tenant-b'), { amount: 5 }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.operationId).not.toBe(b.body.operationId);
    const confirm = await ledger.client.op(a.body.operationId, 'confirm', {
      fencingToken: 1,
      destinationRef: 'A-1',
    });
    expect(confirm.status).toBe(200);
    // Tenant b's operation is untouched by tenant a's outcome.
    const statusB = await ledger.client.status(b.body.operationId);
    expect(statusB.body.state).toBe('in_progress');
    expect(statusB.body.destinationRef).toBeNull();
    const historyB = await ledger.client.history(b.body.operationId);
    expect(historyB.body.events.every((e: any) => e.data.tenant === 'tenant-b')).toBe(true);
    expect(historyB.body.events.map((e: any) => e.type)).toEqual(['OperationClaimed']);
  });
});
