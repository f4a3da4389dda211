import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The local PostgreSQL cluster the fault test stops and starts: `LEDGER_FAULT_PG_CLUSTER`
 * (`<version>/<name>`), default `<the only version in /etc/postgresql>/main`, answering on
 * host/port of `LEDGER_TEST_PG_ADMIN_URL` (default 127.0.0.1:5432).
 */
export interface PgCluster {
  readonly version: string;
  readonly name: string;
  readonly host: string;
  readonly port: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  isReady(): Promise<boolean>;
  /** Starts the cluster if it is down and waits until it accepts connections (≤ `timeoutMs`). */
  ensureRunning(timeoutMs?: number): Promise<void>;
}

export function localCluster(adminUrl: string): PgCluster {
  const [version, name] = (
    process.env['LEDGER_FAULT_PG_CLUSTER'] ?? `${readdirSync('/etc/postgresql')[0]}/main`
  ).split('/');
  const url = new URL(adminUrl);
  const host = url.hostname;
  const port = url.port || '5432';
  const ctl = (action: string, ...extra: string[]) =>
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version!, name!, action, ...extra], {
      timeout: 60_000,
    });
  const isReady = () =>
    run('pg_isready', ['-h', host, '-p', port, '-q']).then(
      () => true,
      () => false,
    );
  return {
    version: version!,
    name: name!,
    host,
    port,
    isReady,
    stop: async () => {
      await ctl('stop', '-m', 'fast');
    },
    start: async () => {
      await ctl('start');
    },
    async ensureRunning(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      if (!(await isReady())) await ctl('start').catch(() => undefined); // "already running" is fine
      while (!(await isReady())) {
        if (Date.now() > deadline)
          throw new Error(`PostgreSQL ${version}/${name} did not come back within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
  };
}
