// The EventStoreDB test double seen through the real client library (no adapter): the answers the
// adapter relies on, in the shapes a real server gives them. These pin the double's fidelity.
import { randomUUID } from 'node:crypto';
import {
  ANY,
  EventStoreDBClient,
  jsonEvent,
  NO_STREAM,
  START,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  startEventStoreDbDouble,
  type EventStoreDbDouble,
} from '../support/eventstoredb-double/eventstoredb-double.js';

const event = (id = randomUUID()) => jsonEvent({ id, type: 'Happened', data: { id } });

describe.each([
  ['BatchAppend (ServerFeatures answered)', true],
  ['Append (no ServerFeatures: an older server)', false],
])('EventStoreDB double over %s', (_name, serverFeatures) => {
  let double: EventStoreDbDouble;
  let client: EventStoreDBClient;
  beforeAll(async () => {
    double = await startEventStoreDbDouble({ serverFeatures });
    client = EventStoreDBClient.connectionString(double.connectionString);
  });
  afterAll(async () => {
    await client.dispose();
    await double.stop();
  });

  it('answers a wrong expected version with the current revision (no_stream on an existing stream)', async () => {
    const stream = `s-${randomUUID()}`;
    await client.appendToStream(stream, [event(), event()], { expectedRevision: NO_STREAM });

    const error = await client
      .appendToStream(stream, event(), { expectedRevision: NO_STREAM })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error.actualVersion).toBe(1n);
    expect(error.streamName).toBe(stream);
  });

  it('answers an exact revision on a missing stream with current no_stream', async () => {
    const error = await client
      .appendToStream(`s-${randomUUID()}`, event(), { expectedRevision: 0n })
      .catch((e) => e);
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error.actualVersion).toBe('no_stream');
    expect(error.expectedVersion).toBe(0n);
  });

  it('acknowledges a repeated append with the same ids and revision, writing nothing', async () => {
    const stream = `s-${randomUUID()}`;
    const events = [event(), event()];
    const first = await client.appendToStream(stream, events, { expectedRevision: NO_STREAM });
    await client.appendToStream(stream, event(), { expectedRevision: ANY });

    const repeat = await client.appendToStream(stream, events, { expectedRevision: NO_STREAM });

    expect(repeat).toEqual(first); // same revision, and the position of the last of those events
    expect(double.log.count(stream)).toBe(3);
  });

  it('reads $all in log order with commit = prepare per event, from a position inclusive', async () => {
    const a = `s-${randomUUID()}`;
    const b = `s-${randomUUID()}`;
    await client.appendToStream(a, [event(), event()], { expectedRevision: NO_STREAM });
    const last = await client.appendToStream(b, event(), { expectedRevision: NO_STREAM });

    const read = [];
    for await (const resolved of client.readAll({ fromPosition: START })) read.push(resolved.event!);
    const mine = read.filter((e) => e.streamId === a || e.streamId === b);

    expect(mine.map((e) => e.streamId)).toEqual([a, a, b]);
    for (const e of mine) expect(e.position!.commit).toBe(e.position!.prepare);
    expect(mine[2]!.position).toEqual(last.position);
    const from = [];
    for await (const r of client.readAll({ fromPosition: mine[1]!.position!, maxCount: 2 }))
      from.push(r.event!);
    expect(from.map((e) => e.id)).toEqual([mine[1]!.id, mine[2]!.id]);
  });

  it('delivers new events of matching streams to a filtered $all subscription', async () => {
    const prefix = `sub-${randomUUID()}-`;
    const subscription = client.subscribeToAll({
      fromPosition: 'end',
      filter: streamNameFilter({ prefixes: [prefix] }),
    });
    const seen: string[] = [];
    const done = (async () => {
      for await (const resolved of subscription) {
        seen.push(resolved.event!.streamId);
        if (seen.length === 2) break;
      }
    })();
    await new Promise((resolve) => subscription.once('confirmation', resolve));
    await client.appendToStream(`other-${randomUUID()}`, event(), { expectedRevision: NO_STREAM });
    await client.appendToStream(`${prefix}1`, event(), { expectedRevision: NO_STREAM });
    await client.appendToStream(`${prefix}2`, event(), { expectedRevision: NO_STREAM });
    await done;
    await subscription.unsubscribe();
    expect(seen).toEqual([`${prefix}1`, `${prefix}2`]);
  });
});

describe('EventStoreDB double cluster discovery', () => {
  it('answers gossip, so an esdb+discover:// connection string finds the leader', async () => {
    const double = await startEventStoreDbDouble();
    const client = EventStoreDBClient.connectionString(
      `esdb+discover://${double.host}:${double.port}?tls=false&discoveryInterval=10`,
    );
    try {
      await client.appendToStream('discovered', event(), { expectedRevision: NO_STREAM });
      expect(double.log.count('discovered')).toBe(1);
    } finally {
      await client.dispose();
      await double.stop();
    }
  });
});
