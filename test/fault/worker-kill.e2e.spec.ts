// Fault survival (docs/security.md "Fault survival"): a worker PROCESS SIGKILLed at each step
// boundary leaves operations the ledger can account for — after lease expiry and the documented
// recovery (reclaim, skip completed steps, or inspect an Unknown outcome at the destination),
// every operation is confirmed with exactly one destination record: nothing lost, no duplicate.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { v5 as uuidv5 } from 'uuid';
import { OPERATION_ID_NAMESPACE } from '../../src/ledger/index.js';
import type { LedgerClient } from '../support/http-client.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const WORKER = resolve(process.cwd(), 'test/fault/worker.mjs');
const LEASE_MS = 5000;
const BOUNDARIES = [
  'after-claim',
  'after-step-start',
  'after-effect',
  'after-step-complete',
  'after-confirm',
] as const;
const PER_BOUNDARY = 3;

/** The destination (e.g. an invoice API) that does NOT deduplicate: every call is a new record. */
function startDestination(): Promise<{
  server: Server;
  url: string;
  records: { id: string; externalRef: string }[];
}> {
  const records: { id: string; externalRef: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST') {
        const record = { id: `REC-${records.length + 1}`, externalRef: JSON.parse(body).externalRef };
        records.push(record);
        return res.end(JSON.stringify(record));
      }
      res.end(JSON.stringify(records.filter((r) => r.externalRef === url.searchParams.get('externalRef'))));
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, records }),
    ),
  );
}

let ledger: TestLedger;
let destination: Awaited<ReturnType<typeof startDestination>>;
let workerToken: string;
let operator: LedgerClient;

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  destination = await startDestination();
  workerToken = (await ledger.createKey({ tenant: 'acme', roles: ['worker'], name: 'fault-worker' })).token;
  operator = (
    await ledger.createKey({ tenant: 'acme', roles: ['operator', 'auditor'], name: 'ops:recovery' })
  ).client;
});
afterAll(async () => {
  destination.server.close();
  await ledger.close();
});

interface WorkerExit {
  readonly signal: NodeJS.Signals | null;
  readonly boundaries: string[];
  readonly outcome: any;
}

/** Runs worker.mjs for `ref`; with `stopAt`, SIGKILLs it as soon as it reports that boundary. */
function runWorker(ref: string, stopAt?: string): Promise<WorkerExit> {
  const key = { tenant: 'acme', source: 'fault', action: 'invoice.create', subject: ref };
  const child = spawn(process.execPath, [WORKER], {
    env: {
      ...process.env,
      LEDGER_URL: ledger.url,
      TOKEN: workerToken,
      DEST_URL: destination.url,
      KEY: JSON.stringify(key),
      REF: ref,
      STOP_AT: stopAt ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const boundaries: string[] = [];
  let outcome: any = null;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith('boundary ')) {
      const name = line.slice('boundary '.length);
      boundaries.push(name);
      if (name === stopAt) child.kill('SIGKILL');
    } else if (line.startsWith('outcome ')) outcome = JSON.parse(line.slice('outcome '.length));
  });
  return new Promise((ok) => child.on('close', (_code, signal) => ok({ signal, boundaries, outcome })));
}

/** The operator's recovery of an Unknown outcome: look at the destination, resolve accordingly. */
async function recover(operationId: string, ref: string): Promise<'confirmed' | 'not_found'> {
  const found = (await (await fetch(`${destination.url}/records?externalRef=${ref}`)).json()) as {
    id: string;
  }[];
  expect(found.length).toBeLessThanOrEqual(1);
  const resolution = found.length === 1 ? 'confirmed' : 'not_found';
  const res = await operator.op(operationId, 'resolve', {
    resolution,
    reason: `lookup by external reference ${ref}`,
    ...(found[0] ? { destinationRef: found[0].id } : {}),
  });
  expect(res.status).toBe(200);
  return resolution;
}

describe('worker processes SIGKILLed at every step boundary', () => {
  const cases = BOUNDARIES.flatMap((b) =>
    Array.from({ length: PER_BOUNDARY }, (_, i) => [b, `${b}-${i}`] as const),
  );
  const killed = new Map<string, WorkerExit>();

  it('kills one worker process per operation at its boundary', async () => {
    const exits = await Promise.all(cases.map(([b, ref]) => runWorker(ref, b)));
    exits.forEach((exit, i) => {
      const [b, ref] = cases[i]!;
      expect(exit.signal).toBe('SIGKILL');
      expect(exit.boundaries.at(-1)).toBe(b);
      killed.set(ref, exit);
    });
  }, 30_000);

  it('after lease expiry and recovery, every operation is confirmed with exactly one destination record', async () => {
    ledger.clock.advance(LEASE_MS + 1);
    const story: Record<string, string[][]> = {};
    await Promise.all(
      cases.map(async ([b, ref]) => {
        const steps: string[] = [];
        let run = await runWorker(ref);
        steps.push(`claim ${run.outcome.claim}${run.outcome.code ? ' ' + run.outcome.code : ''}`);
        if (run.outcome.code === 'awaiting-recovery') {
          const id = (await operator.get(`/v1/operations/${operationIdOf(ref)}`)).body.operationId;
          const resolution = await recover(id, ref);
          steps.push(`resolved ${resolution}`);
          if (resolution === 'not_found') {
            run = await runWorker(ref);
            steps.push(`claim ${run.outcome.claim}`);
          }
        }
        (story[b] ??= []).push(steps);
        const status = await operator.status(operationIdOf(ref));
        expect(status.body.state).toBe('confirmed');
        expect(destination.records.filter((r) => r.externalRef === ref)).toHaveLength(1);
        expect(status.body.destinationRef).toBe(destination.records.find((r) => r.externalRef === ref)!.id);
        const history = (await operator.history(operationIdOf(ref))).body.events.map((e: any) => e.type);
        expect(history.filter((t: string) => t === 'DuplicateEffectDetected')).toEqual([]);
      }),
    );
    // The path each kill point takes (documented in docs/security.md "Fault survival").
    const expected: Record<string, string[]> = {
      'after-claim': ['claim 201'], // nothing started: reclaimed as attempt 2
      'after-step-start': ['claim 409 awaiting-recovery', 'resolved not_found', 'claim 201'],
      'after-effect': ['claim 409 awaiting-recovery', 'resolved confirmed'],
      'after-step-complete': ['claim 201'], // reclaimed; the completed step's output is reused
      'after-confirm': ['claim 200'], // outcome replayed
    };
    for (const b of BOUNDARIES)
      expect(story[b]).toEqual(Array.from({ length: PER_BOUNDARY }, () => expected[b]));
    expect(destination.records).toHaveLength(cases.length);
  }, 60_000);
});

function operationIdOf(ref: string): string {
  return uuidv5(`acme/fault/invoice.create/${ref}@1`, OPERATION_ID_NAMESPACE);
}
