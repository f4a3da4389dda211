import { Metadata, status, type ServiceError } from '@grpc/grpc-js';

/** RPC groups a fault can hit: appends (Append and BatchAppend requests) or reads (Read). */
export type FaultTarget = 'append' | 'read';

/**
 * A failure the double answers instead of (or after) doing the work:
 * - `unavailable`: gRPC UNAVAILABLE, as a node that is not ready or a dropped connection;
 * - `deadline-exceeded`: the server's timeout answer (prepare/commit timeout, or the deadline);
 * - `not-leader`: the NotLeader answer of a follower, naming the leader (`leader`);
 * - `hang`: no answer at all, until the caller gives up (reads only).
 */
export interface Fault {
  readonly target: FaultTarget;
  readonly kind: 'unavailable' | 'deadline-exceeded' | 'not-leader' | 'hang';
  /**
   * `before` (default): nothing is applied. `after`: the append is applied, then its answer is lost
   * — the caller cannot tell whether it was written (a simulated lost response).
   */
  readonly when?: 'before' | 'after';
  /** Leader endpoint for `not-leader`. */
  readonly leader?: { readonly host: string; readonly port: number };
  /** Only appends to streams whose name starts with this (default: any append). */
  readonly streamPrefix?: string;
}

/**
 * Fault injection of the EventStoreDB test double. Queued faults hit the next calls of their
 * target, one call each; a standing fault (`always`) hits every call until {@link clear}.
 * Counters tell tests how many calls arrived (e.g. that a retry happened).
 */
export class DoubleFaults {
  private readonly queued: Fault[] = [];
  private readonly standing = new Map<FaultTarget, Fault>();
  /** Append requests received (each BatchAppend request counts once). */
  appendRequests = 0;
  /** Read calls received (stream and $all reads and subscriptions). */
  readCalls = 0;

  /** The next `times` calls of `fault.target` fail with `fault`. */
  inject(fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.queued.push(fault);
  }

  /** Every call of `fault.target` fails with `fault` until {@link clear} (e.g. a follower node). */
  always(fault: Fault): void {
    this.standing.set(fault.target, fault);
  }

  /** Removes queued and standing faults. */
  clear(): void {
    this.queued.length = 0;
    this.standing.clear();
  }

  /** The fault for this call of `target` (an append to `streamName`), if any; counts the call. */
  take(target: FaultTarget, streamName = ''): Fault | undefined {
    if (target === 'append') this.appendRequests++;
    else this.readCalls++;
    const hits = (f: Fault) => f.target === target && streamName.startsWith(f.streamPrefix ?? '');
    const index = this.queued.findIndex(hits);
    if (index >= 0) return this.queued.splice(index, 1)[0];
    const standing = this.standing.get(target);
    return standing && hits(standing) ? standing : undefined;
  }
}

/** The gRPC error a real server sends for `fault` (RpcExceptions.cs: NotLeader, Timeout, NotReady). */
export function faultError(fault: Fault): Partial<ServiceError> {
  switch (fault.kind) {
    case 'not-leader': {
      const metadata = new Metadata();
      metadata.set('exception', 'not-leader');
      metadata.set('leader-endpoint-host', fault.leader?.host ?? '127.0.0.1');
      metadata.set('leader-endpoint-port', String(fault.leader?.port ?? 2113));
      return { code: status.NOT_FOUND, details: 'Leader info available', metadata };
    }
    case 'deadline-exceeded':
      return { code: status.DEADLINE_EXCEEDED, details: 'Operation timed out' };
    default:
      return { code: status.UNAVAILABLE, details: 'Server Is Not Ready' };
  }
}
