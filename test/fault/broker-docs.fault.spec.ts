// The broker pages' examples (docs/consumers-*.md), verbatim from test/fault/brokers/examples/, on
// the real brokers: each message id delivered three times makes one invoice.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import amqp from 'amqplib';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AckPolicy, connect } from 'nats';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { consumeInvoices as consumeAmqp } from './brokers/examples/amqp-invoices.js';
import { countingBilling } from './brokers/examples/billing.js';
import { invoiceWorker } from './brokers/examples/bullmq-invoices.js';
import { consumeInvoices as consumeJetStream } from './brokers/examples/jetstream-invoices.js';

const unique = () => `ledger-docs-${randomBytes(4).toString('hex')}`;
/** One message delivered three times and another, ids unique per test (one ledger serves all). */
const ids = (prefix: string) => ['order-1', 'order-1', 'order-1', 'order-2'].map((id) => `${prefix}-${id}`);
let ledger: TestLedger;

beforeAll(async () => {
  ledger = await startTestLedger('pglite');
  Object.assign(process.env, {
    LEDGER_URL: ledger.url,
    LEDGER_TOKEN: ledger.rootToken,
  });
}, 60_000);
afterAll(() => ledger.close(), 60_000);

async function until(done: () => boolean, ms = 30_000) {
  for (const end = Date.now() + ms; !done() && Date.now() < end;)
    await new Promise((r) => setTimeout(r, 100));
}

it.each(['amqp', 'bullmq', 'jetstream'])(
  'docs/consumers-%s.md shows its example verbatim, in at most 17 lines',
  (name) => {
    const example = readFileSync(`test/fault/brokers/examples/${name}-invoices.ts`, 'utf8').trimEnd();
    expect(example.split('\n').length).toBeLessThanOrEqual(17);
    expect(readFileSync(`docs/consumers-${name}.md`, 'utf8')).toContain(example);
  },
);

it('RabbitMQ: three deliveries of one message-id, one invoice', async () => {
  const queue = unique();
  const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: false });
  const billing = countingBilling();
  const consumer = await consumeAmqp(channel, queue, billing);
  try {
    for (const id of ids(queue))
      channel.sendToQueue(queue, Buffer.from('{"total":"9.50"}'), { messageId: id });
    await until(() => billing.invoices.size === 2);
    expect([...billing.invoices.values()]).toEqual([1, 1]);
  } finally {
    await consumer.cancel();
    await channel.deleteQueue(queue);
    await connection.close();
  }
}, 60_000);

it('BullMQ: the same job id added three times, one invoice', async () => {
  const name = unique();
  const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection: redis });
  const billing = countingBilling();
  const worker = invoiceWorker(redis, name, billing);
  try {
    for (const id of ids(name)) await queue.add('invoice', { total: '9.50' }, { jobId: id });
    await until(() => billing.invoices.size === 2);
    expect([...billing.invoices.values()]).toEqual([1, 1]);
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  }
}, 60_000);

it('JetStream: one Nats-Msg-Id published three times, one invoice', async () => {
  const stream = unique();
  const nc = await connect({ servers: '127.0.0.1:4222' });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: stream, subjects: [`${stream}.orders`] });
  await jsm.consumers.add(stream, { durable_name: 'invoices', ack_policy: AckPolicy.Explicit });
  const billing = countingBilling();
  const consumer = await consumeJetStream(nc, stream, 'invoices', billing);
  try {
    for (const id of ids(stream))
      await nc.jetstream().publish(`${stream}.orders`, '{"total":"9.50"}', { msgID: id });
    await until(() => billing.invoices.size === 2);
    expect([...billing.invoices.values()]).toEqual([1, 1]);
  } finally {
    await consumer.stop();
    await jsm.streams.delete(stream);
    await nc.close();
  }
}, 60_000);
