/**
 * NATS JetStream adapter (`@operation-ledger/client/jetstream`; `nats` is an optional peer
 * dependency): a pull consumer that runs each message through `runOnce`. See
 * docs/consumers-jetstream.md.
 */
import { headers, type Consumer, type JetStreamClient, type JsMsg } from 'nats';
import type { UnknownOperation } from '../recovery/recover.js';
import { jsonBody, settleDelivery, type ConsumerOptions } from './message-runner.js';

/**
 * Header naming the operation's subject when the message is no original (a re-enqueue after
 * recovery released it): the default key prefers it to `Nats-Msg-Id`.
 */
export const LEDGER_SUBJECT_HEADER = 'Ledger-Key-Subject';

/** Options of {@link consumeWithLedger}, besides the common ones. Durations in ms. */
export interface JetStreamConsumerOptions extends ConsumerOptions<JsMsg> {
  /** Messages run at once. @defaultValue 8 */
  readonly concurrency?: number;
  /** `msg.working()` every this many ms while a message runs (keep it under AckWait). @defaultValue 10000 */
  readonly workingEveryMs?: number;
}

/** A running consumer: `stop()` ends fetching and waits for the messages in flight. */
export interface JetStreamLedgerConsumer {
  stop(): Promise<void>;
  /** Settles when the consumer stopped (or its subscription ended). */
  readonly done: Promise<void>;
}

/**
 * Consumes from a JetStream pull consumer (explicit acks). Per verdict:
 * - ack → `msg.ackAck()` (the server confirms the ack; a lost ack means a redelivery the
 *   ledger answers as a replay);
 * - retry / delay → `msg.nak(delayMs)`: JetStream redelivers after the delay;
 * - reject → `msg.term()`: never redelivered.
 * Default key subject: the `Ledger-Key-Subject` header, else `Nats-Msg-Id`; default payload:
 * the data as JSON. JetStream forgets a `Nats-Msg-Id` after the stream's duplicate window; a
 * republished message past it is a new message to JetStream, but the same operation to the
 * ledger, which replays its outcome.
 */
export async function consumeWithLedger(
  consumer: Consumer,
  options: JetStreamConsumerOptions,
): Promise<JetStreamLedgerConsumer> {
  const concurrency = options.concurrency ?? 8;
  const messages = await consumer.consume({ max_messages: concurrency });
  const inFlight = new Set<Promise<void>>();
  const done = (async () => {
    for await (const msg of messages) {
      const p = handle(msg, options).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  })();
  return {
    done,
    stop: async () => {
      await messages.close();
      await done;
    },
  };
}

async function handle(msg: JsMsg, options: JetStreamConsumerOptions): Promise<void> {
  const working = setInterval(() => msg.working(), options.workingEveryMs ?? 10_000);
  let verdict;
  try {
    verdict = await settleDelivery(options, {
      message: msg,
      brokerId: msg.headers?.get(LEDGER_SUBJECT_HEADER) || msg.headers?.get('Nats-Msg-Id') || undefined,
      body: () => jsonBody(msg.data),
      deliveries: msg.info.redeliveryCount,
    });
  } finally {
    clearInterval(working);
  }
  try {
    if (verdict.action === 'ack') await msg.ackAck();
    else if (verdict.action === 'reject') msg.term(verdict.reason);
    else msg.nak(verdict.delayMs);
  } catch {
    // The connection is gone: JetStream redelivers after AckWait, the ledger answers the repeat.
  }
}

/**
 * `onReleased` for `client.recover`: publishes a released operation to `subject` again with the
 * recorded payload and the `Ledger-Key-Subject` header (no `Nats-Msg-Id`: inside the duplicate
 * window JetStream would drop it as a duplicate of the original).
 */
export function requeueReleased(js: JetStreamClient, subject: string) {
  return async (op: UnknownOperation): Promise<void> => {
    const h = headers();
    h.set(LEDGER_SUBJECT_HEADER, op.key.subject);
    await js.publish(subject, JSON.stringify(op.payload), { headers: h });
  };
}
