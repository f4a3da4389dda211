import { connect, createServer, type Socket } from 'node:net';

/**
 * What a {@link FaultProxy} does to the bytes it relays now. Directions: `up` from the client side
 * to the target, `down` back.
 */
export interface LinkFaults {
  /** Added one-way delay per chunk, ms (default 0). */
  readonly delayMs?: number;
  /** Uniform jitter around the delay, ± ms (default 0). */
  readonly jitterMs?: number;
  /**
   * Share of chunks lost, 0–1 (default 0). A byte stream cannot drop bytes, so a loss is what TCP
   * makes of it: the chunk arrives one retransmission timeout (`rtoMs`) late, and what follows
   * waits behind it.
   */
  readonly loss?: number;
  /** Retransmission timeout of a lost chunk, ms (default 400). */
  readonly rtoMs?: number;
  /**
   * One-way blackhole: bytes in this direction are held — as a partitioned network holds them,
   * TCP retransmitting — until it is lifted, then delivered in order (default none).
   */
  readonly blackhole?: 'none' | 'up' | 'down' | 'both';
}

/** A userspace TCP proxy of the test's own (this machine has no netem qdisc). */
export interface FaultProxy {
  readonly host: string;
  readonly port: number;
  /** Replaces the faults for all connections, open and new. */
  set(faults: LinkFaults): void;
  /** Calls `watch` with every chunk as it arrives from the client side (null: stop). */
  tap(watch: ((chunk: Buffer) => void) | null): void;
  /** Closes the listener and every relayed connection. */
  close(): Promise<void>;
}

/** One direction of one connection: chunks leave in order, each at its release time. */
class Lane {
  private queue: { at: number; chunk: Buffer }[] = [];
  private lastAt = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly to: Socket,
    private readonly faults: () => LinkFaults,
    private readonly held: () => boolean,
  ) {}

  push(chunk: Buffer): void {
    const f = this.faults();
    const jitter = (f.jitterMs ?? 0) * (2 * Math.random() - 1);
    const lost = Math.random() < (f.loss ?? 0) ? (f.rtoMs ?? 400) : 0;
    const at = Math.max(this.lastAt, Date.now() + Math.max(0, (f.delayMs ?? 0) + jitter) + lost);
    this.lastAt = at;
    this.queue.push({ at, chunk });
    this.pump();
  }

  /** Sends what is due unless held; re-arms for the next chunk. Called again when faults change. */
  pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.held()) return;
    const now = Date.now();
    while (this.queue.length > 0 && this.queue[0]!.at <= now) {
      if (!this.to.destroyed) this.to.write(this.queue.shift()!.chunk);
      else this.queue.shift();
    }
    if (this.queue.length > 0) this.timer = setTimeout(() => this.pump(), this.queue[0]!.at - now);
  }

  get idle(): boolean {
    return this.queue.length === 0;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.queue = [];
  }
}

/**
 * Starts a proxy on `listen` (port 0: any) relaying each connection to `target`, with the
 * {@link LinkFaults} given to {@link FaultProxy.set}. A connection's end or error closes its peer
 * once the queued bytes are out.
 */
export async function startFaultProxy(
  listen: { host: string; port?: number },
  target: { host: string; port: number },
): Promise<FaultProxy> {
  let faults: LinkFaults = {};
  let watch: ((chunk: Buffer) => void) | null = null;
  const lanes = new Set<Lane>();
  const sockets = new Set<Socket>();
  const holds = (dir: 'up' | 'down') => () => faults.blackhole === dir || faults.blackhole === 'both';
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
    }
    const up = new Lane(upstream, () => faults, holds('up'));
    const down = new Lane(client, () => faults, holds('down'));
    lanes.add(up).add(down);
    // An end or close passes on once the bytes queued before it are out (or the peer is gone).
    const relay = (from: Socket, lane: Lane, to: Socket) => {
      const afterQueue = (then: () => void) => {
        const tick = () => (lane.idle || to.destroyed ? then() : void setTimeout(tick, 50));
        tick();
      };
      from.on('data', (chunk: Buffer) => {
        if (from === client) watch?.(chunk);
        lane.push(chunk);
      });
      from.on('end', () => afterQueue(() => to.end()));
      from.on('error', () => undefined); // 'close' follows
      from.on('close', () => afterQueue(() => to.destroy()));
    };
    relay(client, up, upstream);
    relay(upstream, down, client);
    const gone = () => {
      if (!client.destroyed || !upstream.destroyed) return;
      up.stop();
      down.stop();
      lanes.delete(up);
      lanes.delete(down);
    };
    client.on('close', gone);
    upstream.on('close', gone);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, listen.host, resolve);
  });
  const address = server.address();
  return {
    host: listen.host,
    port: typeof address === 'object' && address ? address.port : 0,
    set(next) {
      faults = next;
      for (const lane of lanes) lane.pump();
    },
    tap(next) {
      watch = next;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
