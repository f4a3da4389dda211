import {
  status,
  type sendUnaryData,
  type ServerDuplexStream,
  type ServerReadableStream,
} from '@grpc/grpc-js';
import emptyPb from 'google-protobuf/google/protobuf/empty_pb.js';
import { faultError, type DoubleFaults } from './double-faults.js';
import {
  EXPECTED_ANY,
  EXPECTED_NO_STREAM,
  EXPECTED_STREAM_EXISTS,
  type DoubleLog,
  type ProposedEvent,
  type WriteOutcome,
} from './double-log.js';
import {
  proposedEvent,
  rpcStatus,
  sharedPb,
  streamIdentifier,
  streamNameOf,
  streamsPb,
  UINT64_MAX,
} from './double-wire.js';

type AppendReq = InstanceType<typeof streamsPb.AppendReq>;
type AppendResp = InstanceType<typeof streamsPb.AppendResp>;
type BatchAppendReq = InstanceType<typeof streamsPb.BatchAppendReq>;
type BatchAppendResp = InstanceType<typeof streamsPb.BatchAppendResp>;

/**
 * Streams.Append of the double (server: Streams.Append.cs): the first message names the stream and
 * expected revision, the following ones carry the events; the reply is Success (revision and
 * position of the last event) or WrongExpectedVersion — an answer, not a gRPC error. As on the
 * server, an expected `no_stream` is echoed as expected revision 2^64-1 (StreamRevision.FromInt64(-1)).
 */
export function appendHandler(log: DoubleLog, faults: DoubleFaults) {
  return (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) => {
    let streamName = '';
    let expected = EXPECTED_ANY;
    let options: InstanceType<typeof streamsPb.AppendReq.Options> | undefined;
    const events: ProposedEvent[] = [];
    call.on('data', (request: AppendReq) => {
      if (request.hasOptions()) {
        options = request.getOptions()!;
        streamName = streamNameOf(options.getStreamIdentifier());
        expected = appendExpected(options);
      } else if (request.hasProposedMessage()) {
        events.push(proposedEvent(request.getProposedMessage()!));
      }
    });
    call.on('end', () => {
      if (!options) return callback({ code: status.INVALID_ARGUMENT, details: 'options first' });
      const fault = faults.take('append', streamName);
      if (fault && fault.when !== 'after') return callback(faultError(fault));
      const outcome = log.append(streamName, expected, events);
      if (fault) return callback(faultError(fault));
      callback(null, appendResponse(outcome, options));
    });
  };
}

function appendExpected(options: InstanceType<typeof streamsPb.AppendReq.Options>): bigint {
  if (options.hasRevision()) return BigInt(options.getRevision());
  if (options.hasNoStream()) return EXPECTED_NO_STREAM;
  if (options.hasStreamExists()) return EXPECTED_STREAM_EXISTS;
  return EXPECTED_ANY;
}

function appendResponse(
  outcome: WriteOutcome,
  options: InstanceType<typeof streamsPb.AppendReq.Options>,
): AppendResp {
  const response = new streamsPb.AppendResp();
  if (outcome.kind !== 'wrong-expected-version') {
    const position = new streamsPb.AppendResp.Position()
      .setCommitPosition(outcome.position.toString())
      .setPreparePosition(outcome.position.toString());
    return response.setSuccess(
      new streamsPb.AppendResp.Success()
        .setCurrentRevision(outcome.lastRevision.toString())
        .setPosition(position),
    );
  }
  const wrong = new streamsPb.AppendResp.WrongExpectedVersion();
  if (outcome.currentRevision < 0n) wrong.setCurrentNoStream(new sharedPb.Empty());
  else wrong.setCurrentRevision(outcome.currentRevision.toString());
  if (options.hasAny()) wrong.setExpectedAny(new sharedPb.Empty());
  else if (options.hasStreamExists()) wrong.setExpectedStreamExists(new sharedPb.Empty());
  else wrong.setExpectedRevision(options.hasRevision() ? options.getRevision() : UINT64_MAX.toString());
  return response.setWrongExpectedVersion(wrong);
}

/**
 * Streams.BatchAppend of the double (server: Streams.BatchAppend.cs): one long-lived call carries
 * many appends, each identified by a correlation id and completed by an `is_final` request; each
 * is answered on its own with Success or a google.rpc.Status (wrong expected version: code
 * ALREADY_EXISTS with an `event_store.client.WrongExpectedVersion` detail; timeout: DEADLINE_EXCEEDED
 * with `event_store.client.Timeout`). A `not-leader` or `unavailable` fault ends the whole call,
 * as a NotLeader exception or a dropped connection does on the server.
 */
export function batchAppendHandler(log: DoubleLog, faults: DoubleFaults) {
  return (call: ServerDuplexStream<BatchAppendReq, BatchAppendResp>) => {
    const pending = new Map<
      string,
      { options: InstanceType<typeof streamsPb.BatchAppendReq.Options>; events: ProposedEvent[] }
    >();
    call.on('data', (request: BatchAppendReq) => {
      const key = request.getCorrelationId()!.serializeBinary().toString();
      if (request.hasOptions()) pending.set(key, { options: request.getOptions()!, events: [] });
      const write = pending.get(key);
      if (!write) return;
      write.events.push(...request.getProposedMessagesList().map(proposedEvent));
      if (!request.getIsFinal()) return;
      pending.delete(key);
      const streamName = streamNameOf(write.options.getStreamIdentifier());
      const response = new streamsPb.BatchAppendResp()
        .setCorrelationId(request.getCorrelationId())
        .setStreamIdentifier(streamIdentifier(streamName));
      const fault = faults.take('append', streamName);
      const applied = !fault || fault.when === 'after';
      const outcome = applied
        ? log.append(streamName, batchExpected(write.options), write.events)
        : undefined;
      if (!fault) return void call.write(batchResponse(response, outcome!, write.options));
      if (fault.kind !== 'deadline-exceeded') return void call.emit('error', faultError(fault));
      const timeout = rpcStatus(
        status.DEADLINE_EXCEEDED,
        'Timeout',
        new sharedPb.Timeout(),
        'event_store.client.Timeout',
      );
      call.write(response.setError(timeout));
    });
    call.on('end', () => call.end());
  };
}

function batchExpected(options: InstanceType<typeof streamsPb.BatchAppendReq.Options>): bigint {
  if (options.hasStreamPosition()) return BigInt(options.getStreamPosition());
  if (options.hasNoStream()) return EXPECTED_NO_STREAM;
  if (options.hasStreamExists()) return EXPECTED_STREAM_EXISTS;
  return EXPECTED_ANY;
}

function batchResponse(
  response: BatchAppendResp,
  outcome: WriteOutcome,
  options: InstanceType<typeof streamsPb.BatchAppendReq.Options>,
): BatchAppendResp {
  if (outcome.kind !== 'wrong-expected-version') {
    const position = new sharedPb.AllStreamPosition()
      .setCommitPosition(outcome.position.toString())
      .setPreparePosition(outcome.position.toString());
    return response.setSuccess(
      new streamsPb.BatchAppendResp.Success()
        .setCurrentRevision(outcome.lastRevision.toString())
        .setPosition(position),
    );
  }
  const detail = new sharedPb.WrongExpectedVersion();
  if (outcome.currentRevision < 0n) detail.setCurrentNoStream(new emptyPb.Empty());
  else detail.setCurrentStreamRevision(outcome.currentRevision.toString());
  if (options.hasAny()) detail.setExpectedAny(new emptyPb.Empty());
  else if (options.hasNoStream()) detail.setExpectedNoStream(new emptyPb.Empty());
  else if (options.hasStreamExists()) detail.setExpectedStreamExists(new emptyPb.Empty());
  else detail.setExpectedStreamPosition(options.getStreamPosition());
  return response.setError(
    rpcStatus(
      status.ALREADY_EXISTS,
      'WrongExpectedVersion',
      detail,
      'event_store.client.WrongExpectedVersion',
    ),
  );
}
