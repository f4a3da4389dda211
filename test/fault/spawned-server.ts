import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePort } from '../process/start-command.js';
import { buildSources } from '../observability/support/build-sources.js';

/** A ledger server process (`node src/main.js` of an SWC build of `src/`). */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves with the signal or exit code once the process ended. */
  readonly exited: Promise<string | number | null>;
  output(): string;
  /** Sends `signal` (default SIGKILL) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<string | number | null>;
}

/** A fresh admin token `olk_<24 hex>_<secret>` for LEDGER_ADMIN_TOKEN. */
export const newAdminToken = () =>
  `olk_${randomBytes(12).toString('hex')}_${randomBytes(32).toString('base64url')}`;

/** Where a spawned server runs: a network namespace (`ip netns exec`) and the address it binds. */
export interface ServerPlace {
  readonly netns: string;
  readonly host: string;
}

/**
 * Spawns the server with `env` on a free loopback port below the ephemeral range (NODE_OPTIONS
 * cleared, rate limiting off) — or in the network namespace `place` on its address — and resolves
 * once it logged that it listens. A start refused because the port was taken meanwhile is tried
 * again on another port (three times). Rejects with its output if it exits first or is not
 * listening within `timeoutMs`.
 */
export async function spawnServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
  place?: ServerPlace,
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOnPort(env, await freePort(), timeoutMs, place);
    } catch (error) {
      if (attempt >= 3 || !/already in use/.test(String(error))) throw error;
    }
  }
}

async function spawnOnPort(
  env: Record<string, string>,
  port: number,
  timeoutMs: number,
  place: ServerPlace | undefined,
): Promise<ServerProcess> {
  const build = buildSources();
  const node = [process.execPath, join(build, 'src/main.js')];
  // `ip netns exec` execs the command: the child's pid is the server's.
  const [command, ...args] = place ? ['ip', 'netns', 'exec', place.netns, ...node] : node;
  const host = place?.host ?? '127.0.0.1';
  const child = spawn(command!, args, {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      HOST: host,
      PORT: String(port),
      LEDGER_RATE_LIMIT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<string | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ledger not listening after ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      if (out.includes('listening on http')) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`ledger exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    url: `http://${host}:${port}`,
    child,
    exited,
    output: () => out,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * SIGTERM, and SIGKILL if the process has not exited after `killAfterMs`.
 * @returns the exit code (0: the server's own graceful stop finished) or the signal that ended it.
 */
export async function stopGently(
  server: ServerProcess,
  killAfterMs = 30_000,
): Promise<string | number | null> {
  const killer = setTimeout(() => server.child.kill('SIGKILL'), killAfterMs);
  try {
    return await server.kill('SIGTERM');
  } finally {
    clearTimeout(killer);
  }
}

/** Creates a key with the admin token; returns its token. */
export async function issueKey(
  url: string,
  adminToken: string,
  tenant: string,
  roles: string[],
): Promise<string> {
  const res = await fetch(`${url}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant, roles, name: `crash-${roles.join('-')}` }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 201 || !body.token)
    throw new Error(`key not issued: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}
