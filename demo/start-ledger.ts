import type { AddressInfo } from 'node:net';
import { DEFAULT_CONFIG, type LedgerConfig } from '../src/config/ledger-config.js';
import { createLedgerApp } from '../src/create-ledger-app.js';
import { createAppApiKey } from '../src/auth/create-app-api-key.js';
import { externalLedger } from './external-ledger.js';
import { RECOVERY_ACTOR } from './recovery.js';

/**
 * The ONE place where the demo touches the ledger server's code. Everything else in demo/ talks
 * to the ledger over its HTTP API (docs/api.md) through the URL this file returns.
 */

/** A ledger reachable over HTTP. */
export interface RunningLedger {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Headers every request needs (e.g. `authorization`), if the ledger is configured with auth. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Stops the ledger (a no-op for an external one). */
  close(): Promise<void>;
}

/** Where to find or how to start the ledger. */
export interface StartLedgerOptions {
  /** Use this already running ledger (e.g. `docker compose up`) instead of starting one. */
  readonly externalUrl?: string;
  /** Settings of the in-process ledger that differ from the defaults (e.g. `sweepIntervalMs`). */
  readonly config?: Partial<LedgerConfig>;
}

/**
 * Returns a ledger for the demo: an external one when `externalUrl` (or the `LEDGER_URL`
 * environment variable) names it, else one started in-process on an ephemeral port with the
 * embedded PGlite store, in memory, so `npm run demo` needs nothing installed.
 */
export async function startLedger(options: StartLedgerOptions = {}): Promise<RunningLedger> {
  const external = options.externalUrl ?? process.env.LEDGER_URL;
  if (external) return externalLedger(external, process.env);

  const config: LedgerConfig = {
    ...DEFAULT_CONFIG,
    ...options.config,
    store: 'pglite',
    dataDir: 'memory://',
    port: 0,
  };
  const app = await createLedgerApp(config, { logger: false });
  // Bind to 127.0.0.1 (app.getUrl() would answer http://[::1]:<port> when bound to ::).
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  // One key for the demo's workers and its recovery bot (the actor recorded on resolutions).
  const { token } = await createAppApiKey(app, {
    tenant: '*',
    roles: ['worker', 'operator', 'auditor'],
    name: RECOVERY_ACTOR,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    headers: { authorization: `Bearer ${token}` },
    close: () => app.close(),
  };
}
