import { Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import gossipGrpc from '@eventstore/db-client/generated/gossip_grpc_pb.js';
import serverFeaturesGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import streamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import { appendHandler, batchAppendHandler } from './append-service.js';
import { gossipHandler, serverFeaturesHandler } from './cluster-services.js';
import { DoubleFaults } from './double-faults.js';
import { DoubleLog } from './double-log.js';
import { readHandler } from './read-service.js';

/** Options of {@link startEventStoreDbDouble}. */
export interface EventStoreDbDoubleOptions {
  /**
   * Answer ServerFeatures (default true), so the client appends through BatchAppend as it does
   * against real servers since 21.10. `false` leaves ServerFeatures unimplemented: the client then
   * assumes an old server and uses the Append RPC.
   */
  readonly serverFeatures?: boolean;
  /** Send 2^64-1 as the position of events read from a stream, as servers before 22.10 did. */
  readonly legacyStreamPositions?: boolean;
}

/** A running double. */
export interface EventStoreDbDouble {
  /** `esdb://127.0.0.1:<port>?tls=false` — an insecure single node, as the ledger configures it. */
  readonly connectionString: string;
  readonly host: string;
  readonly port: number;
  /** Its storage, for assertions on what is really stored (e.g. counting copies of an event). */
  readonly log: DoubleLog;
  /** Fault injection and call counters. */
  readonly faults: DoubleFaults;
  /** Stops the server at once (open calls are cancelled). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts the EventStoreDB TEST DOUBLE: a small gRPC server (@grpc/grpc-js) on 127.0.0.1 and an
 * ephemeral port, implementing — on the service definitions generated in
 * `@eventstore/db-client` — the subset of EventStoreDB's protocol that the ledger's adapter uses:
 * Streams.Append, Streams.BatchAppend, Streams.Read (streams, `$all`, filters, `$all`
 * subscriptions), ServerFeatures and Gossip. It reproduces the server's expected-revision rules,
 * its wrong-expected-version answers, event-id deduplication of retries, `$all` order and
 * filtered reads (see double-log.ts for what is and is not modelled), so the real client library
 * and the adapter are exercised over real gRPC. It is a double, NOT a substitute for EventStoreDB:
 * the contract suite also runs against a real server when EVENTSTORE_CONNECTION_STRING is set.
 */
export async function startEventStoreDbDouble(
  options: EventStoreDbDoubleOptions = {},
): Promise<EventStoreDbDouble> {
  const log = new DoubleLog();
  const faults = new DoubleFaults();
  const server = new Server();
  const host = '127.0.0.1';
  let port = 0;
  server.addService(streamsGrpc.StreamsService, {
    read: readHandler(log, faults, options),
    append: appendHandler(log, faults),
    batchAppend: batchAppendHandler(log, faults),
  } as unknown as UntypedServiceImplementation);
  if (options.serverFeatures !== false) {
    server.addService(serverFeaturesGrpc.ServerFeaturesService, {
      getSupportedMethods: serverFeaturesHandler(),
    } as unknown as UntypedServiceImplementation);
  }
  server.addService(gossipGrpc.GossipService, {
    read: gossipHandler(() => ({ host, port })),
  } as unknown as UntypedServiceImplementation);
  port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:0`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  let stopped: Promise<void> | undefined;
  return {
    connectionString: `esdb://${host}:${port}?tls=false`,
    host,
    port,
    log,
    faults,
    stop: () =>
      (stopped ??= Promise.resolve().then(() => {
        server.forceShutdown();
      })),
  };
}
