// Exactly one effect on NATS JetStream's at-least-once delivery (docs/consumers-jetstream.md):
// 300 messages through 3 consumer processes SIGKILLed at random moments (before the claim, during
// the step, after the destination saved, before the ack); JetStream redelivers after AckWait.
// Then every message is published again with its Nats-Msg-Id after the stream's duplicate window
// (2 s here): JetStream takes them as new, the ledger replays them. Afterwards the destination
// holds exactly one record per message, every message was acked, every operation is confirmed.
import { randomBytes } from 'node:crypto';
import {
  AckPolicy,
  connect,
  headers,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
} from 'nats';
import { requeueReleased } from '@operation-ledger/client/jetstream';
import { ensureClientBuild, runChaos, startRealTimeLedger } from './brokers/chaos-run.js';

const N = Number(process.env.CHAOS_N ?? 300);
const stream = `ledger-chaos-js-${randomBytes(4).toString('hex')}`;
const subject = `${stream}.invoices`;
const DUPLICATE_WINDOW_MS = 2_000;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;
let ledger: Awaited<ReturnType<typeof startRealTimeLedger>>;

beforeAll(async () => {
  ensureClientBuild();
  nc = await connect({ servers: '127.0.0.1:4222' });
  jsm = await nc.jetstreamManager();
  js = nc.jetstream();
  await jsm.streams.add({
    name: stream,
    subjects: [subject],
    duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
  });
  await jsm.consumers.add(stream, {
    durable_name: stream,
    ack_policy: AckPolicy.Explicit,
    ack_wait: 8_000 * 1_000_000,
    max_ack_pending: 1_000,
  });
  ledger = await startRealTimeLedger();
}, 120_000);

afterAll(async () => {
  await jsm?.streams.delete(stream).catch(() => undefined);
  await nc?.close();
  await ledger?.stop();
}, 60_000);

/** Publishes message `id` with `Nats-Msg-Id: id`; true when JetStream stored it (no duplicate). */
async function publish(id: string): Promise<boolean> {
  const h = headers();
  const ack = await js.publish(subject, JSON.stringify({ n: Number(id.slice(2)) }), {
    msgID: id,
    headers: h,
  });
  return !ack.duplicate;
}

async function pending(): Promise<number> {
  const info = await jsm.consumers.info(stream, stream);
  return info.num_pending + info.num_ack_pending;
}

it(`${N} messages, consumers SIGKILLed at random moments, all republished after the duplicate window: ${N} records, no double effect`, async () => {
  let republished = 0;
  const figures = await runChaos(
    {
      broker: 'jetstream',
      queue: stream,
      publish: async (ids) => {
        for (const id of ids) await publish(id);
      },
      requeue: requeueReleased(js, subject),
      pending,
    },
    ledger.ledger.url,
    ledger.ledger.rootToken,
    { n: N, consumers: 3, killBudget: 16, killP: 0.06, deadlineMs: 150_000 },
    async (pool) => {
      // The reimport: every message again with its Nats-Msg-Id, once JetStream forgot them.
      await new Promise((r) => setTimeout(r, DUPLICATE_WINDOW_MS + 500));
      for (let i = 0; i < N; i++) if (await publish(`m-${i}`)) republished++;
      pool.start();
      for (let t = 0; t < 60 && (await pending()) > 0; t++) await new Promise((r) => setTimeout(r, 1_000));
      await pool.stop();
    },
  );
  process.stdout.write(`jetstream chaos: ${JSON.stringify({ ...figures, republished })}\n`);
  expect({
    republished,
    records: figures.destinationRecords,
    doubles: figures.keysWithTwoRecords,
    confirmed: figures.confirmed,
    unacked: figures.pendingAtEnd,
  }).toEqual({ republished: N, records: N, doubles: 0, confirmed: N, unacked: 0 });
  expect(Object.values(figures.kills).every((k) => k > 0)).toBe(true);
}, 260_000);
