/**
 * AMQP 0-9-1 adapter for RabbitMQ (`@operation-ledger/client/amqp`; `amqplib` is an optional
 * peer dependency): a consumer that runs each message through `runOnce`. See docs/consumers-amqp.md.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import type { UnknownOperation } from '../recovery/recover.js';
import { jsonBody, settleDelivery, type ConsumerOptions } from './message-runner.js';

/** A running consumer. */
export interface AmqpConsumer {
  readonly consumerTag: string;
  /** Stops deliveries and waits until every message in flight was acked or nacked. */
  cancel(): Promise<void>;
}

/**
 * Consumes `queue` with manual acks (set `channel.prefetch(n)` for n messages in flight). Per
 * verdict:
 * - ack → `channel.ack`;
 * - retry / delay → wait `delayMs`, then `channel.nack(msg, false, true)` (requeue): RabbitMQ has
 *   no redelivery delay of its own, so the adapter holds the message meanwhile (it counts against
 *   the prefetch; if the channel closes, RabbitMQ requeues it at once);
 * - reject → `channel.nack(msg, false, false)`: dead-lettered where the queue has a
 *   dead-letter exchange, else dropped.
 * Default key subject: the `message-id` property; default payload: the body as JSON. Deliveries
 * are counted from the `x-delivery-count` header (quorum queues), else `redelivered`.
 */
export async function consumeWithLedger(
  channel: Channel,
  queue: string,
  options: ConsumerOptions<ConsumeMessage>,
): Promise<AmqpConsumer> {
  const inFlight = new Set<Promise<void>>();
  const { consumerTag } = await channel.consume(
    queue,
    (msg) => {
      if (!msg) return;
      const p = handle(channel, msg, options).finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    { noAck: false },
  );
  return {
    consumerTag,
    cancel: async () => {
      await channel.cancel(consumerTag);
      await Promise.all(inFlight);
    },
  };
}

async function handle(channel: Channel, msg: ConsumeMessage, options: ConsumerOptions<ConsumeMessage>) {
  const count = Number(msg.properties.headers?.['x-delivery-count']);
  const verdict = await settleDelivery(options, {
    message: msg,
    brokerId: (msg.properties.messageId as string | undefined) ?? undefined,
    body: () => jsonBody(msg.content),
    deliveries: Number.isFinite(count) ? count + 1 : msg.fields.redelivered ? 2 : 1,
  });
  try {
    if (verdict.action === 'ack') channel.ack(msg);
    else if (verdict.action === 'reject') channel.nack(msg, false, false);
    else {
      await new Promise((resolve) => setTimeout(resolve, verdict.delayMs));
      channel.nack(msg, false, true);
    }
  } catch {
    // The channel closed: RabbitMQ requeues every unacked message, the ledger answers the repeat.
  }
}

/**
 * `onReleased` for `client.recover`: publishes a released operation to `queue` again, with the
 * key's subject as `message-id` and the recorded payload as a JSON body (the default key and
 * payload), persistent. On a confirm channel it waits for the broker's confirm.
 */
export function requeueReleased(channel: Channel, queue: string) {
  return async (op: UnknownOperation): Promise<void> => {
    channel.sendToQueue(queue, Buffer.from(JSON.stringify(op.payload)), {
      messageId: op.key.subject,
      contentType: 'application/json',
      persistent: true,
    });
    const confirms = (channel as Partial<{ waitForConfirms(): Promise<void> }>).waitForConfirms;
    if (confirms) await confirms.call(channel);
  };
}
