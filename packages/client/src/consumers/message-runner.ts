import type { LedgerClient } from '../client.js';
import type { OperationKey } from '../types.js';
import type { OperationContext } from '../worker/operation-context.js';
import type { JobResult, RunOptions } from '../worker/run-options.js';
import { UnusableMessageError, verdictFor, type RetryBackoff, type Verdict } from './verdict.js';

/** The key parts a consumer's messages share; the default key adds the broker's id as `subject`. */
export interface OperationOf {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly revision?: number;
}

/** Options every consumer adapter takes; `M` is the broker's message type. */
export interface ConsumerOptions<M> {
  /** The ledger client (only `runOnce` is used). */
  readonly client: Pick<LedgerClient, 'runOnce'>;
  /**
   * The message's operation key. Default: `{ ...operation, subject: <the broker's id> }` — the
   * job id (BullMQ), `message-id` (AMQP), `Nats-Msg-Id` (JetStream).
   */
  readonly key?: (message: M) => OperationKey;
  /** Key parts for the default `key`; required without `key`. */
  readonly operation?: OperationOf;
  /** The payload fingerprinted by the claim. Default: the message body (JSON). */
  readonly payload?: (message: M) => unknown;
  /** The work, run once per operation; `payload` is what the claim recorded. */
  readonly job: (
    op: OperationContext,
    payload: unknown,
    message: M,
  ) => Promise<JobResult | void> | JobResult | void;
  /** `runOnce` options (lease, timeout, classifyError, …), fixed or per message. */
  readonly runOptions?: RunOptions | ((message: M) => RunOptions);
  /** Backoff of retryable failures. @defaultValue `{ baseMs: 1000, maxMs: 60000 }` */
  readonly backoff?: RetryBackoff;
  /** Called with every verdict before the adapter acts on it (logs, metrics, tests). */
  readonly onVerdict?: (verdict: Verdict, message: M) => void;
}

/** What an adapter knows about a delivery. */
export interface Delivery<M> {
  readonly message: M;
  /** The broker's id of the message, the default key's subject; undefined when it has none. */
  readonly brokerId: string | undefined;
  /** The body as the default payload. Throws UnusableMessageError when it is no JSON. */
  readonly body: () => unknown;
  /** 1 for the first delivery. */
  readonly deliveries: number;
}

/**
 * Runs one delivery through `runOnce` and returns the verdict (see {@link verdictFor}); never
 * throws. The default key without a broker id, or without `operation`, is a UnusableMessageError
 * (verdict `reject`).
 */
export async function settleDelivery<M>(
  options: ConsumerOptions<M>,
  delivery: Delivery<M>,
): Promise<Verdict> {
  let verdict: Verdict;
  try {
    const { message } = delivery;
    const key = options.key ? options.key(message) : defaultKey(options.operation, delivery.brokerId);
    const payload = options.payload ? options.payload(message) : delivery.body();
    const runOptions =
      typeof options.runOptions === 'function' ? options.runOptions(message) : options.runOptions;
    const result = await options.client.runOnce(
      key,
      payload,
      (op) => options.job(op, payload, message),
      runOptions,
    );
    verdict = verdictFor({ result }, delivery.deliveries, options.backoff);
  } catch (error) {
    verdict = verdictFor({ error }, delivery.deliveries, options.backoff);
  }
  options.onVerdict?.(verdict, delivery.message);
  return verdict;
}

function defaultKey(operation: OperationOf | undefined, brokerId: string | undefined): OperationKey {
  if (!operation) throw new UnusableMessageError('neither `key` nor `operation` was given to the consumer');
  if (brokerId === undefined || brokerId === '') {
    throw new UnusableMessageError("the message has no id for the default key's subject");
  }
  return { ...operation, subject: brokerId };
}

/** A JSON body from bytes; UnusableMessageError when it is not JSON (the message can never run). */
export function jsonBody(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  } catch (err) {
    throw new UnusableMessageError(`the message body is no JSON: ${(err as Error).message}`);
  }
}
