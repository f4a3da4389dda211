/* global fetch, AbortSignal */
// A consumer PROCESS for the broker chaos proofs (plain ESM; the SDK's build, packages/client/dist).
// It runs the queue's messages through a broker adapter and `runOnce` against a destination that
// does not deduplicate. It SIGKILLs itself with probability KILL_P at the moment KILL_AT — one of
// before-claim, during-step, after-save, before-ack — announcing `kill <moment>` on stdout first.
// With NOT_SENT_P it first calls a closed port (ECONNREFUSED: the step is not performed).
// Env: BROKER (bullmq|amqp|jetstream), LEDGER_URL, TOKEN, DEST_URL, QUEUE, OPERATION (JSON),
// KILL_AT, KILL_P, NOT_SENT_P, CLOSED_URL (nothing listens there), LEASE_MS, REQUEST_TIMEOUT_MS.
import { LedgerClient } from '@operation-ledger/client';

const env = process.env;
const killP = Number(env.KILL_P ?? 0);
const notSentP = Number(env.NOT_SENT_P ?? 0);
const requestTimeoutMs = Number(env.REQUEST_TIMEOUT_MS ?? 1500);
const moment = (name) => {
  if (env.KILL_AT === name && Math.random() < killP) {
    process.stdout.write(`kill ${name}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
};
const say = (line) => process.stdout.write(`${line}\n`);

const client = new LedgerClient({ baseUrl: env.LEDGER_URL, token: env.TOKEN });

/** One invoice at the destination per message: the step the ledger guards. */
async function createRecord(op, payload) {
  const ref = await op.step('create', async (providerKey) => {
    moment('during-step');
    if (Math.random() < notSentP) {
      say('not-sent');
      await fetch(`${env.CLOSED_URL}/records`, { method: 'POST' }); // ECONNREFUSED
    }
    const res = await fetch(`${env.DEST_URL}/records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ providerKey, n: payload.n }),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const record = await res.json();
    moment('after-save');
    return record.id;
  });
  return { destinationRef: ref };
}

const options = {
  client,
  operation: JSON.parse(env.OPERATION),
  runOptions: () => {
    moment('before-claim');
    return { leaseMs: Number(env.LEASE_MS ?? 3000) };
  },
  job: async (op, payload) => {
    try {
      return await createRecord(op, payload);
    } catch (err) {
      if (env.CHAOS_DEBUG)
        process.stderr.write(`job error ${err?.name}: ${err?.message} ${err?.cause?.code ?? ''}\n`);
      throw err;
    }
  },
  onVerdict: (verdict) => {
    say(`verdict ${verdict.action}${verdict.outcome ? ` ${verdict.outcome}` : ''}`);
    moment('before-ack');
  },
};

// SIGTERM: stop taking messages, settle (ack or nack) those in flight, close, exit.
let stop = async () => {};
process.on('SIGTERM', () => {
  void stop().finally(() => process.exit(0));
});

if (env.BROKER === 'bullmq') {
  const { Worker } = await import('bullmq');
  const { Redis } = await import('ioredis');
  const { ledgerProcessor } = await import('@operation-ledger/client/bullmq');
  const worker = new Worker(env.QUEUE, ledgerProcessor(options), {
    connection: new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null }),
    concurrency: 8,
    lockDuration: 4000,
    stalledInterval: 2000,
    maxStalledCount: 1_000_000,
  });
  worker.on('error', () => {});
  stop = () => worker.close();
} else if (env.BROKER === 'amqp') {
  const amqp = await import('amqplib');
  const { consumeWithLedger } = await import('@operation-ledger/client/amqp');
  const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const channel = await connection.createChannel();
  await channel.prefetch(8);
  const consumer = await consumeWithLedger(channel, env.QUEUE, options);
  stop = async () => {
    await consumer.cancel();
    await connection.close();
  };
} else {
  const { connect } = await import('nats');
  const { consumeWithLedger } = await import('@operation-ledger/client/jetstream');
  const nc = await connect({ servers: '127.0.0.1:4222' });
  const consumer = await nc.jetstream().consumers.get(env.QUEUE, env.QUEUE);
  const running = await consumeWithLedger(consumer, { ...options, concurrency: 8, workingEveryMs: 1000 });
  stop = async () => {
    await running.stop();
    await nc.drain();
  };
}
say('ready');
