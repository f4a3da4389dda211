/**
 * Protobuf plumbing of the EventStoreDB test double, on the messages generated in
 * `@eventstore/db-client/generated` (the same definitions the client uses, so the bytes on the
 * wire are the real protocol's). Default imports: these generated CommonJS modules have no
 * statically detectable named exports.
 */
import anyPb from 'google-protobuf/google/protobuf/any_pb.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import statusPb from '@eventstore/db-client/generated/status_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';
import type { LoggedEvent, ProposedEvent } from './double-log.js';

export { sharedPb, streamsPb };

/** 2^64 - 1: `StreamRevision.FromInt64(-1)` on the server (e.g. an expected `no_stream`). */
export const UINT64_MAX = 2n ** 64n - 1n;

type Uuid = InstanceType<typeof sharedPb.UUID>;
type ProposedMessage =
  | InstanceType<typeof streamsPb.AppendReq.ProposedMessage>
  | InstanceType<typeof streamsPb.BatchAppendReq.ProposedMessage>;

/** A UUID message (string or structured form) as lower-case 8-4-4-4-12 text. */
export function parseUuid(uuid: Uuid | undefined): string {
  if (!uuid) throw new Error('missing UUID');
  if (uuid.hasString()) return uuid.getString().toLowerCase();
  const structured = uuid.getStructured()!;
  const hex = (value: string) => BigInt.asUintN(64, BigInt(value)).toString(16).padStart(16, '0');
  const h = hex(structured.getMostSignificantBits()) + hex(structured.getLeastSignificantBits());
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `id` as a UUID message: string form when `asString`, else the server's default structured form. */
export function uuidMessage(id: string, asString: boolean): Uuid {
  const uuid = new sharedPb.UUID();
  if (asString) return uuid.setString(id);
  const hex = id.replaceAll('-', '');
  const signed = (part: string) => BigInt.asIntN(64, BigInt(`0x${part}`)).toString();
  const structured = new sharedPb.UUID.Structured()
    .setMostSignificantBits(signed(hex.slice(0, 16)))
    .setLeastSignificantBits(signed(hex.slice(16)));
  return uuid.setStructured(structured);
}

/** A stream identifier message. */
export function streamIdentifier(name: string): InstanceType<typeof sharedPb.StreamIdentifier> {
  return new sharedPb.StreamIdentifier().setStreamName(Buffer.from(name, 'utf8'));
}

/** The UTF-8 name inside a stream identifier message. */
export function streamNameOf(identifier: InstanceType<typeof sharedPb.StreamIdentifier> | undefined): string {
  if (!identifier) throw new Error('missing stream identifier');
  return Buffer.from(identifier.getStreamName_asU8()).toString('utf8');
}

/**
 * A proposed message as the server reads it; the `type` and `content-type` metadata are required
 * (RequiredMetadataPropertyMissing otherwise, here an Error).
 */
export function proposedEvent(message: ProposedMessage): ProposedEvent {
  const type = message.getMetadataMap().get('type');
  const contentType = message.getMetadataMap().get('content-type');
  if (!type || !contentType) throw new Error('proposed message without type or content-type');
  return {
    id: parseUuid(message.getId()),
    type,
    contentType,
    data: message.getData_asU8(),
    metadata: message.getCustomMetadata_asU8(),
  };
}

/**
 * One ReadResp carrying `event`. Commit and prepare positions are filled on every read, as servers
 * since 22.10 do for stream reads too; `legacyStreamPositions` mimics older servers, which sent
 * 2^64-1 for events read from a stream.
 */
export function readEventResponse(
  event: LoggedEvent,
  options: { uuidAsString: boolean; fromAll: boolean; legacyStreamPositions?: boolean },
): InstanceType<typeof streamsPb.ReadResp> {
  const position = !options.fromAll && options.legacyStreamPositions ? UINT64_MAX : event.position;
  const recorded = new streamsPb.ReadResp.ReadEvent.RecordedEvent()
    .setId(uuidMessage(event.id, options.uuidAsString))
    .setStreamIdentifier(streamIdentifier(event.streamName))
    .setStreamRevision(event.revision.toString())
    .setCommitPosition(position.toString())
    .setPreparePosition(position.toString())
    .setData(event.data)
    .setCustomMetadata(event.metadata);
  recorded
    .getMetadataMap()
    .set('type', event.type)
    .set('created', event.createdTicks.toString())
    .set('content-type', event.contentType);
  const readEvent = new streamsPb.ReadResp.ReadEvent().setEvent(recorded);
  if (options.fromAll) readEvent.setCommitPosition(event.position.toString());
  else readEvent.setNoPosition(new sharedPb.Empty());
  return new streamsPb.ReadResp().setEvent(readEvent);
}

/**
 * A google.rpc.Status with `detail` packed the way the server packs it (`Any.Pack`, type URL
 * `type.googleapis.com/<full name>`), as BatchAppend reports per-request failures.
 */
export function rpcStatus(
  code: number,
  message: string,
  detail: { serializeBinary(): Uint8Array },
  fullName: string,
): InstanceType<typeof statusPb.Status> {
  const any = new anyPb.Any();
  any.pack(detail.serializeBinary(), fullName);
  return new statusPb.Status().setCode(code).setMessage(message).setDetails(any);
}
