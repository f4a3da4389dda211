// Exactly one effect on RabbitMQ's at-least-once delivery (docs/consumers-amqp.md): 300 messages
// through 3 consumer processes SIGKILLed at random moments (before the claim, during the step,
// after the destination saved, before the ack); RabbitMQ requeues the unacked messages of a closed
// channel. Afterwards the destination holds exactly one record per message, every message was
// acked and every operation is confirmed (recovery looked the late answers up by provider key).
import { randomBytes } from 'node:crypto';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { requeueReleased } from '@operation-ledger/client/amqp';
import { ensureClientBuild, runChaos, startRealTimeLedger } from './brokers/chaos-run.js';

const N = Number(process.env.CHAOS_N ?? 300);
let connection: ChannelModel;
let channel: Channel;
let ledger: Awaited<ReturnType<typeof startRealTimeLedger>>;
const queue = `ledger-chaos-amqp-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ensureClientBuild();
  connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  channel = await connection.createConfirmChannel();
  await channel.assertQueue(queue, { durable: false });
  ledger = await startRealTimeLedger();
}, 120_000);

afterAll(async () => {
  await channel?.deleteQueue(queue).catch(() => undefined);
  await connection?.close().catch(() => undefined);
  await ledger?.stop();
}, 60_000);

it(`${N} messages, consumers SIGKILLed at random moments: ${N} records, all acked, all confirmed, no double effect`, async () => {
  const figures = await runChaos(
    {
      broker: 'amqp',
      queue,
      publish: async (ids) => {
        for (const id of ids) {
          channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n: Number(id.slice(2)) })), {
            messageId: id,
            contentType: 'application/json',
          });
        }
        await (channel as amqp.ConfirmChannel).waitForConfirms();
      },
      requeue: requeueReleased(channel, queue),
      pending: async () => (await channel.checkQueue(queue)).messageCount,
    },
    ledger.ledger.url,
    ledger.ledger.rootToken,
    { n: N, consumers: 3, killBudget: 16, killP: 0.06, deadlineMs: 150_000 },
  );
  process.stdout.write(`amqp chaos: ${JSON.stringify(figures)}\n`);
  expect({
    records: figures.destinationRecords,
    doubles: figures.keysWithTwoRecords,
    confirmed: figures.confirmed,
    unacked: figures.pendingAtEnd,
  }).toEqual({ records: N, doubles: 0, confirmed: N, unacked: 0 });
  expect(figures.kills).toEqual({
    'before-claim': expect.any(Number),
    'during-step': expect.any(Number),
    'after-save': expect.any(Number),
    'before-ack': expect.any(Number),
  });
  expect(Object.values(figures.kills).every((k) => k > 0)).toBe(true);
}, 200_000);
