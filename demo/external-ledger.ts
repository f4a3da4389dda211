import type { RunningLedger } from './start-ledger.js';

/**
 * A ledger already running at `url` (`--ledger-url`, `LEDGER_URL`; e.g. `docker compose up`).
 * Its routes need an API key (docs/security.md) unless it runs with `LEDGER_AUTH=disabled`: the
 * demo sends `LEDGER_TOKEN` when set — a key of tenant `*` (the demo's deliveries name several
 * tenants) with the roles worker, operator and auditor. Closing it is a no-op.
 */
export function externalLedger(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
): RunningLedger {
  const token = env.LEDGER_TOKEN;
  return {
    url: url.replace(/\/+$/, ''),
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    close: async () => {},
  };
}
