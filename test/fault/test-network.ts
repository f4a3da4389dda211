import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ip = (...args: string[]) => run('ip', args, { timeout: 10_000 });

/** One network namespace of a {@link TestNetwork}, linked to the root namespace by a veth pair. */
export interface Host {
  /** The namespace's name (unique per network: `olp<hex>-<role>`). */
  readonly netns: string;
  /** Its address on its link (the root namespace is `gateway`). */
  readonly address: string;
  /** The root namespace's address on the same link: what the host reaches, and only that. */
  readonly gateway: string;
  /** The namespace's side of the link. */
  readonly link: string;
  /**
   * Takes the namespace's side of the link down: packets vanish both ways, open connections hang
   * rather than reset, and a new connection fails once ARP gives up. (Taking the root side down
   * would remove its route, and the root namespace's default route would carry the traffic off
   * the machine; the network's unreachable route stops that too.)
   */
  cut(): Promise<void>;
  /** Brings the link up again. */
  heal(): Promise<void>;
}

/**
 * Network namespaces (`ip netns`, iproute2) for partition tests: one per role, each linked to the
 * root namespace — where the test runs and its fault proxies listen — by a veth pair on its own
 * /30 of a random 10.x.y.0/24 (unreachable from the root namespace but for those links). No routes
 * between namespaces: a host reaches only the root's
 * address on its link, so all traffic between roles goes through the test's proxies. Traffic
 * stays on this machine. Needs root (CAP_NET_ADMIN).
 */
export interface TestNetwork {
  readonly hosts: Record<string, Host>;
  /** Deletes the namespaces (and so their links). Kill their processes first. Idempotent. */
  destroy(): Promise<void>;
}

/** Creates one namespace per role; on a failure, deletes what it made. */
export async function createTestNetwork(roles: readonly string[]): Promise<TestNetwork> {
  const id = randomBytes(3).toString('hex');
  const net = `10.${100 + (randomBytes(1)[0]! % 150)}.${randomBytes(1)[0]!}`;
  const made: string[] = [];
  let routed = false;
  const hosts: Record<string, Host> = {};
  const network: TestNetwork = {
    hosts,
    async destroy() {
      for (const netns of made.splice(0)) await ip('netns', 'del', netns).catch(() => undefined);
      if (routed) await ip('route', 'del', 'unreachable', `${net}.0/24`).catch(() => undefined);
      routed = false;
    },
  };
  try {
    // Whatever the links' state, nothing addressed to the test network leaves the machine.
    await ip('route', 'add', 'unreachable', `${net}.0/24`);
    routed = true;
    for (const [i, role] of roles.entries()) {
      const netns = `olp${id}-${role}`;
      const [outer, inner] = [`olp${id}${i}r`, `olp${id}${i}n`];
      const [gateway, address] = [`${net}.${4 * i + 1}`, `${net}.${4 * i + 2}`];
      await ip('netns', 'add', netns);
      made.push(netns);
      await ip('link', 'add', outer, 'type', 'veth', 'peer', 'name', inner);
      await ip('link', 'set', inner, 'netns', netns);
      await ip('addr', 'add', `${gateway}/30`, 'dev', outer);
      await ip('link', 'set', outer, 'up');
      await ip('-n', netns, 'addr', 'add', `${address}/30`, 'dev', inner);
      await ip('-n', netns, 'link', 'set', inner, 'up');
      await ip('-n', netns, 'link', 'set', 'lo', 'up');
      hosts[role] = {
        netns,
        address,
        gateway,
        link: inner,
        cut: async () => void (await ip('-n', netns, 'link', 'set', inner, 'down')),
        heal: async () => void (await ip('-n', netns, 'link', 'set', inner, 'up')),
      };
    }
  } catch (error) {
    await network.destroy();
    throw error;
  }
  return network;
}

/** Pids of the processes still in `netns` (`ip netns pids`), to stop them before deleting it. */
export async function pidsIn(netns: string): Promise<number[]> {
  const { stdout } = await ip('netns', 'pids', netns).catch(() => ({ stdout: '' }));
  return stdout
    .split('\n')
    .filter((l) => /^\d+$/.test(l.trim()))
    .map(Number);
}
