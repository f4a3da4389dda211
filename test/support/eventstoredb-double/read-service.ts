import { randomUUID } from 'node:crypto';
import { status, type ServerWritableStream } from '@grpc/grpc-js';
import { faultError, type DoubleFaults } from './double-faults.js';
import type { DoubleLog, LoggedEvent } from './double-log.js';
import { readEventResponse, streamIdentifier, streamNameOf, streamsPb, UINT64_MAX } from './double-wire.js';

type ReadReq = InstanceType<typeof streamsPb.ReadReq>;
type ReadResp = InstanceType<typeof streamsPb.ReadResp>;
type Options = InstanceType<typeof streamsPb.ReadReq.Options>;
type Call = ServerWritableStream<ReadReq, ReadResp>;

/** Behaviour switches of the read side. */
export interface ReadServiceOptions {
  /** Send 2^64-1 as the position of events read from a stream, as servers before 22.10 did. */
  readonly legacyStreamPositions?: boolean;
}

/**
 * Streams.Read of the double (server: Streams.Read.cs and its enumerators):
 * - a stream, forwards or backwards, from a revision / start / end, `count` events, skipping those
 *   below the stream's `$tb`; a missing stream answers one `stream_not_found` message;
 * - `$all` forwards from a position (inclusive) / start / end, `count` events, optionally filtered
 *   by stream-name or event-type prefixes or regex (`count` counts matching events);
 * - a `$all` subscription: confirmation, the events after the position (exclusive), a `caught_up`
 *   message (servers ≥ 23.10), then live events until the caller cancels.
 * Not modelled: stream subscriptions, backwards `$all` reads, checkpoints of filtered subscriptions,
 * link resolution.
 */
export function readHandler(log: DoubleLog, faults: DoubleFaults, settings: ReadServiceOptions = {}) {
  return (call: Call) => {
    const options = call.request.getOptions()!;
    const fault = faults.take('read');
    if (fault?.kind === 'hang') return;
    if (fault) return void call.emit('error', faultError(fault));
    const uuidAsString = options.getUuidOption()?.hasString() ?? false;
    if (options.hasStream()) {
      if (options.hasSubscription()) {
        return void call.emit('error', {
          code: status.UNIMPLEMENTED,
          details: 'double: no stream subscriptions',
        });
      }
      return readStream(call, log, options, { uuidAsString, ...settings });
    }
    const matches = filterOf(options);
    if (options.hasSubscription()) return subscribeToAll(call, log, options, matches, uuidAsString);
    if (options.getReadDirection() !== streamsPb.ReadReq.Options.ReadDirection.FORWARDS) {
      return void call.emit('error', {
        code: status.UNIMPLEMENTED,
        details: 'double: no backwards $all reads',
      });
    }
    let left = BigInt(options.getCount());
    for (const event of log.from(allStart(options, log))) {
      if (left <= 0n) break;
      if (!matches(event)) continue;
      call.write(readEventResponse(event, { uuidAsString, fromAll: true }));
      left--;
    }
    call.end();
  };
}

function readStream(
  call: Call,
  log: DoubleLog,
  options: Options,
  settings: { uuidAsString: boolean; legacyStreamPositions?: boolean },
): void {
  const streamOptions = options.getStream()!;
  const streamName = streamNameOf(streamOptions.getStreamIdentifier());
  const events = log.stream(streamName);
  if (!events) {
    const notFound = new streamsPb.ReadResp.StreamNotFound().setStreamIdentifier(
      streamIdentifier(streamName),
    );
    call.write(new streamsPb.ReadResp().setStreamNotFound(notFound));
    return void call.end();
  }
  const backwards = options.getReadDirection() === streamsPb.ReadReq.Options.ReadDirection.BACKWARDS;
  const last = BigInt(events.length - 1);
  let from = streamOptions.hasRevision() ? BigInt(streamOptions.getRevision()) : backwards ? last : 0n;
  if (streamOptions.hasEnd()) from = backwards ? last : last + 1n;
  if (backwards && from > last) from = last;
  const tb = Number(log.truncatedBefore(streamName));
  const selected = backwards
    ? events.slice(tb, Number(from) + 1).reverse()
    : events.slice(Math.max(tb, Number(from)));
  for (const event of selected.slice(0, Number(minCount(options.getCount(), selected.length)))) {
    call.write(readEventResponse(event, { fromAll: false, ...settings }));
  }
  call.end();
}

function subscribeToAll(
  call: Call,
  log: DoubleLog,
  options: Options,
  matches: (event: LoggedEvent) => boolean,
  uuidAsString: boolean,
): void {
  const all = options.getAll()!;
  let next = all.hasEnd() ? log.endPosition : all.hasPosition() ? allStart(options, log) + 1n : 0n;
  let caughtUp = false;
  const confirmation = new streamsPb.ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID());
  call.write(new streamsPb.ReadResp().setConfirmation(confirmation));
  const push = () => {
    if (call.cancelled || call.destroyed) return;
    for (const event of log.from(next)) {
      next = event.position + 1n;
      if (matches(event)) call.write(readEventResponse(event, { uuidAsString, fromAll: true }));
    }
    if (!caughtUp) {
      caughtUp = true;
      call.write(new streamsPb.ReadResp().setCaughtUp(new streamsPb.ReadResp.CaughtUp()));
    }
  };
  const stop = log.onAppended(push);
  call.on('cancelled', stop);
  call.on('close', stop);
  call.on('error', stop);
  push();
}

/** Where a `$all` read starts: the given position (commit; commit = prepare here), start or end. */
function allStart(options: Options, log: DoubleLog): bigint {
  const all = options.getAll()!;
  if (all.hasEnd()) return log.endPosition;
  if (!all.hasPosition()) return 0n;
  const commit = BigInt(all.getPosition()!.getCommitPosition());
  return commit === UINT64_MAX ? log.endPosition : commit;
}

/** The server's event filter (EventFilter.cs): stream name or event type, prefixes or regex. */
function filterOf(options: Options): (event: LoggedEvent) => boolean {
  if (!options.hasFilter()) return () => true;
  const filter = options.getFilter()!;
  const onStream = filter.hasStreamIdentifier();
  const expression = onStream ? filter.getStreamIdentifier()! : filter.getEventType()!;
  const subject = (event: LoggedEvent) => (onStream ? event.streamName : event.type);
  const regex = expression.getRegex();
  if (regex) {
    const pattern = new RegExp(regex);
    return (event) => pattern.test(subject(event));
  }
  const prefixes = expression.getPrefixList();
  return (event) => prefixes.some((prefix) => subject(event).startsWith(prefix));
}

function minCount(count: string, available: number): bigint {
  const requested = BigInt(count || '0');
  return requested < BigInt(available) ? requested : BigInt(available);
}
