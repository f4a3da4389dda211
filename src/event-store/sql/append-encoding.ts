import { ANY, type EventToAppend, type ExpectedRevision, NO_STREAM } from '../event-store.port.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in canonical 8-4-4-4-12 hex form (any case; stored and returned lower-case). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * The `p_expected` argument of `ledger_append`: `'no_stream'`, `'any'` or the decimal revision.
 * @throws RangeError for a negative revision or anything else.
 */
export function encodeExpectedRevision(expected: ExpectedRevision): string {
  if (expected === NO_STREAM || expected === ANY) return expected;
  if (typeof expected === 'bigint' && expected >= 0n && expected < 2n ** 62n) return expected.toString();
  throw new RangeError(
    `Expected revision must be 'no_stream', 'any' or a bigint >= 0, got ${String(expected)}`,
  );
}

/**
 * The `p_events` argument of `ledger_append` as JSON text: `[{id, type, data, metadata}]`, with
 * `metadata` defaulting to `{}`.
 * @throws TypeError for an empty stream name, no events, a non-UUID id, an empty type or
 *   non-object data/metadata. (JSON.stringify also throws TypeError on bigint values in data.)
 */
export function encodeEvents(streamName: string, events: readonly EventToAppend[]): unknown[] {
  if (typeof streamName !== 'string' || streamName === '') {
    throw new TypeError('Stream name must be a non-empty string');
  }
  if (!Array.isArray(events) || events.length === 0) {
    throw new TypeError(`Append to ${streamName} needs at least one event`);
  }
  return events.map((event, index) => {
    if (!isUuid(event.id)) {
      throw new TypeError(`Event ${index} of ${streamName}: id must be a UUID, got ${String(event.id)}`);
    }
    if (typeof event.type !== 'string' || event.type === '') {
      throw new TypeError(`Event ${index} of ${streamName}: type must be a non-empty string`);
    }
    if (!isPlainObject(event.data) || (event.metadata !== undefined && !isPlainObject(event.metadata))) {
      throw new TypeError(`Event ${index} of ${streamName}: data and metadata must be JSON objects`);
    }
    return { id: event.id, type: event.type, data: event.data, metadata: event.metadata ?? {} };
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
