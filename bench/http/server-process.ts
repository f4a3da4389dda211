import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** How to start one server process. */
export interface ServerSpec {
  /** Name in messages and in the log file name. */
  readonly name: string;
  /** Script run with `node`, e.g. `dist/src/main.js`. */
  readonly script: string;
  /** Environment added to the parent's (PORT and HOST are set by {@link startServer}). */
  readonly env: Readonly<Record<string, string>>;
  /** Path answering 200 once the server is ready, e.g. `/health`. */
  readonly readyPath: string;
  /** File the process's stdout and stderr are copied to. */
  readonly logFile: string;
  /** Longest wait for readiness, ms. */
  readonly startTimeoutMs: number;
  /** Node.js options before the script, e.g. `--cpu-prof` (not all are allowed in NODE_OPTIONS). */
  readonly nodeArgs?: readonly string[];
}

/** A server process started by {@link startServer}. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Sends SIGTERM, and SIGKILL when it has not exited after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

/** A free TCP port on 127.0.0.1, chosen by the kernel (ephemeral range, above 20000 on Linux). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts `node <script>` as its own process listening on 127.0.0.1 and a free port, and waits
 * until `readyPath` answers 200 (polled every 100 ms).
 * @throws Error with the log's tail when the process exits or is not ready within `startTimeoutMs`.
 */
export async function startServer(spec: ServerSpec): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = createWriteStream(spec.logFile);
  const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), spec.script], {
    env: { ...process.env, NO_COLOR: '1', ...spec.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Should the benchmark die without stopping its servers, take this one with it.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
    log.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async (graceMs = 10_000): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exited(child).then(() => false), sleep(graceMs, true)]);
      if (killed) child.kill('SIGKILL');
      await exited(child);
    }
    log.end();
  };
  const deadline = Date.now() + spec.startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(url + spec.readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) {
        return { name: spec.name, pid: child.pid!, url, stop };
      }
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  await stop(2000);
  throw new Error(`${spec.name} did not become ready (exit ${child.exitCode}); log tail:\n${tail}`);
}
