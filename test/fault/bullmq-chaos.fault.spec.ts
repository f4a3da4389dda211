// Exactly one effect on BullMQ's at-least-once processing (docs/consumers-bullmq.md): 300 jobs
// through 3 worker processes SIGKILLed at random moments (before the claim, during the step,
// after the destination saved, before the job completes); BullMQ re-runs the stalled jobs.
// Afterwards the destination holds exactly one record per job, every job completed and every
// operation is confirmed (recovery looked the late answers up by provider key).
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { requeueReleased } from '@operation-ledger/client/bullmq';
import { ensureClientBuild, runChaos, startRealTimeLedger } from './brokers/chaos-run.js';

const N = Number(process.env.CHAOS_N ?? 300);
const queueName = `ledger-chaos-bullmq-${randomBytes(4).toString('hex')}`;
let queue: Queue;
let redis: Redis;
let ledger: Awaited<ReturnType<typeof startRealTimeLedger>>;

beforeAll(async () => {
  ensureClientBuild();
  // BullMQ loads ioredis lazily, which native ESM cannot: it takes a connected client instead.
  redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null });
  queue = new Queue(queueName, { connection: redis });
  ledger = await startRealTimeLedger();
}, 120_000);

afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await ledger?.stop();
}, 60_000);

it(`${N} jobs, workers SIGKILLed at random moments: ${N} records, all completed, all confirmed, no double effect`, async () => {
  const figures = await runChaos(
    {
      broker: 'bullmq',
      queue: queueName,
      publish: async (ids) => {
        await queue.addBulk(
          ids.map((id) => ({ name: 'invoice', data: { n: Number(id.slice(2)) }, opts: { jobId: id } })),
        );
      },
      requeue: requeueReleased(queue, 'invoice'),
      pending: async () => {
        const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
        return Object.values(c).reduce((a, b) => a + b, 0);
      },
    },
    ledger.ledger.url,
    ledger.ledger.rootToken,
    { n: N, consumers: 3, killBudget: 16, killP: 0.06, deadlineMs: 150_000 },
  );
  process.stdout.write(`bullmq chaos: ${JSON.stringify(figures)}\n`);
  expect({
    records: figures.destinationRecords,
    doubles: figures.keysWithTwoRecords,
    confirmed: figures.confirmed,
    notCompleted: figures.pendingAtEnd,
    completed: await queue.getCompletedCount(),
  }).toEqual({ records: N, doubles: 0, confirmed: N, notCompleted: 0, completed: N });
  expect(Object.values(figures.kills).every((k) => k > 0)).toBe(true);
}, 200_000);
