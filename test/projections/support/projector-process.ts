import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { swcBuild } from '../../support/swc-build.js';

/**
 * The projector entry point, `src/projections/projector-main.js`, of the sources compiled into
 * `node_modules/.cache/ledger-swc-build-<key>` (see `swcBuild`).
 */
export function buildProjector(): string {
  return join(swcBuild(), 'src/projections/projector-main.js');
}

/** A projector child process and the instance id it reported. */
export interface ProjectorProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<number | string | null>;
  /** The last 4 000 characters the process wrote (stdout and stderr), for failure messages. */
  output(): string;
}

/**
 * Starts `node projector-main.js` on PostgreSQL `databaseUrl` with small batches (so a kill lands
 * mid catch-up) and resolves once it printed that it runs.
 */
export async function startProjectorProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ProjectorProcess> {
  const entry = buildProjector();
  const child = spawn(process.execPath, [entry], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      LEDGER_STORE: 'postgres',
      DATABASE_URL: databaseUrl,
      LEDGER_POOL_SIZE: '4',
      LEDGER_PROJECTOR_BATCH_SIZE: '100',
      LEDGER_PROJECTOR_POLL_MS: '100',
      LEDGER_PROJECTOR_LOCK_POLL_MS: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  let stderr = '';
  let tail = '';
  const keep = (chunk: Buffer): void => void (tail = (tail + chunk.toString()).slice(-4000));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stderr!.on('data', keep);
  child.stdout!.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"started"')) resolve();
    });
    void exited.then((how) =>
      reject(new Error(`projector exited (${String(how)}) before starting: ${stderr}`)),
    );
  });
  return { child, pid: child.pid!, exited, output: () => tail };
}
