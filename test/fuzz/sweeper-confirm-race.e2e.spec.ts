// The lease sweeper racing a worker's confirm at the lease boundary, 200 times: the server clock stands exactly on the lease expiry while the sweep
// and the confirm run at once. Whoever appends first wins the expected-revision race; the other
// decides again on the new state. The operation ends confirmed or swept (unknown after a started
// step, released otherwise) — never a confirm the worker was told succeeded and then lost.
import { LeaseSweeper } from '../../src/jobs/lease-sweeper.js';
import type { LedgerClient } from '../support/http-client.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { awaitCatchUp } from '../fault/ledger-invariants.js';

const ROUNDS = 20;
const PER_ROUND = 10;
const LEASE_MS = 1000;
let ledger: TestLedger;
let worker: LedgerClient;

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  worker = (await ledger.createKey({ tenant: 'acme', roles: ['worker'] })).client;
});
afterAll(() => ledger.close());

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

it(`races the sweeper and a confirm at the lease boundary ${ROUNDS * PER_ROUND} times: confirmed or swept, never a lost confirm`, async () => {
  const sweeper = ledger.app.get(LeaseSweeper);
  const tally: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const ops: { id: string; stepped: boolean }[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      const key = { tenant: 'acme', source: 'race', action: 'invoice.create', subject: `R-${round}-${i}` };
      const claim = await worker.claim(key, { i }, { leaseMs: LEASE_MS });
      expect(claim.status).toBe(201);
      const stepped = i % 2 === 0;
      if (stepped)
        expect(
          (await worker.op(claim.body.operationId, 'steps/charge/start', { fencingToken: 1 })).status,
        ).toBe(200);
      ops.push({ id: claim.body.operationId, stepped });
    }
    await awaitCatchUp(ledger.url, ledger.rootToken); // the sweeper nominates from the read model
    ledger.clock.advance(LEASE_MS); // now == lease expiry: expired for the sweeper, the boundary for the worker
    const [confirms] = await Promise.all([
      Promise.all(
        ops.map(async ({ id }, i) => {
          await pause(i % 4);
          return worker.op(id, 'confirm', { fencingToken: 1, destinationRef: `REF-${id}` });
        }),
      ),
      pause(round % 3).then(() => sweeper.sweepOnce()),
    ]);
    for (const [i, { id, stepped }] of ops.entries()) {
      const answer = confirms[i]!;
      const state = (await worker.status(id)).body.state as string;
      const events = (await worker.history(id)).body.events.filter(
        (e: any) => !e.streamName.startsWith('audit-'),
      );
      const confirmed = events.filter((e: any) => e.type === 'OperationConfirmed').length;
      const outcome = `${answer.status} ${answer.body.code ?? answer.body.state} → ${state}`;
      tally[outcome] = (tally[outcome] ?? 0) + 1;
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 200) {
        expect(state).toBe('confirmed');
        expect(confirmed).toBe(1);
      } else {
        expect(state).toBe(stepped ? 'unknown' : 'released');
        expect(confirmed).toBe(0);
      }
    }
    ledger.clock.advance(1);
  }
  console.log(`sweeper vs confirm at the lease boundary: ${JSON.stringify(tally)}`);
}, 240_000);
