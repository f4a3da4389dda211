import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, freePort } from '../../process/start-command.js';

/**
 * A ledger server started as `node --import …/register-tracing.js dist/server/main.js`, the way
 * `npm start` and the image run it: the build's server bundle.
 */
export interface SpawnedLedger {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then resolves with the exit code once the process ended (its output complete). */
  stop(): Promise<number | string | null>;
}

/**
 * Builds `dist/` unless it is fresh, and spawns the server bundle with stdout and stderr piped — not a terminal,
 * as under a container runtime — on a free loopback port below the ephemeral range, with `env` added to the
 * environment (NODE_OPTIONS cleared, LEDGER_DATA_DIR in a new temporary directory). Resolves once
 * it logged that it listens; rejects if it exits first.
 */
export async function spawnLedger(env: Record<string, string>): Promise<SpawnedLedger> {
  ensureBuilt();
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', './dist/src/observability/tracing/register-tracing.js', 'dist/server/main.js'],
    {
      cwd: process.cwd(),
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        HOST: '127.0.0.1',
        PORT: String(port),
        LEDGER_DATA_DIR: mkdtempSync(join(tmpdir(), 'ledger-obs-')),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes('"listening on http')) {
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) =>
      reject(new Error(`ledger exited (${code}) before listening:\n${out}\n${err}`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
