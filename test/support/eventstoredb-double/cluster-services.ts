import { randomUUID } from 'node:crypto';
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import gossipPb from '@eventstore/db-client/generated/gossip_pb.js';
import serverFeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import { sharedPb, uuidMessage } from './double-wire.js';

type Empty = InstanceType<typeof sharedPb.Empty>;

/** The server version the double claims to be (the line of the docker-compose image). */
export const DOUBLE_SERVER_VERSION = '24.10.0';

/**
 * ServerFeatures.GetSupportedMethods of the double (server: ServerFeatures.cs): the Streams
 * methods it implements, with the server's feature tags. Listing BatchAppend makes the client
 * append through BatchAppend, as it does against real servers since 21.10.
 */
export function serverFeaturesHandler() {
  const streams = 'event_store.client.streams.streams';
  const methods: [string, string, string[]][] = [
    [streams, 'read', ['position', 'events']],
    [streams, 'append', []],
    [streams, 'batchappend', ['deadline_duration']],
    ['event_store.client.gossip.gossip', 'read', []],
  ];
  return (_call: ServerUnaryCall<Empty, unknown>, callback: sendUnaryData<unknown>) => {
    const supported = new serverFeaturesPb.SupportedMethods().setEventStoreServerVersion(
      DOUBLE_SERVER_VERSION,
    );
    for (const [service, method, features] of methods) {
      supported.addMethods(
        new serverFeaturesPb.SupportedMethod()
          .setServiceName(service)
          .setMethodName(method)
          .setFeaturesList(features),
      );
    }
    callback(null, supported);
  };
}

/**
 * Gossip.Read of the double: a one-node cluster whose only member is an alive leader at the
 * double's own address, so `esdb+discover://` and multi-host connection strings resolve to it.
 */
export function gossipHandler(address: () => { host: string; port: number }) {
  const instanceId = randomUUID();
  return (_call: ServerUnaryCall<Empty, unknown>, callback: sendUnaryData<unknown>) => {
    const { host, port } = address();
    const member = new gossipPb.MemberInfo()
      .setInstanceId(uuidMessage(instanceId, false))
      .setTimeStamp(String(BigInt(Date.now()) * 10_000n))
      .setState(gossipPb.MemberInfo.VNodeState.LEADER)
      .setIsAlive(true)
      .setHttpEndPoint(new gossipPb.EndPoint().setAddress(host).setPort(port));
    callback(null, new gossipPb.ClusterInfo().setMembersList([member]));
  };
}
