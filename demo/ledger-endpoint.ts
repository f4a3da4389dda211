import { LedgerClient } from '@operation-ledger/client';

/** Where the ledger is and how to talk to it. */
export interface LedgerEndpoint {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no `/v1`). */
  readonly url: string;
  /** Extra headers for every request (e.g. `authorization`), if the ledger wants them. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The worker SDK's client for an endpoint (the demo's only way to reach the ledger). */
export function ledgerClient(endpoint: LedgerEndpoint): LedgerClient {
  return new LedgerClient({ baseUrl: endpoint.url, headers: endpoint.headers });
}

/** The public URL of an operation's audit history. */
export function historyUrl(endpoint: LedgerEndpoint, operationId: string): string {
  return `${endpoint.url.replace(/\/+$/, '')}/v1/operations/${encodeURIComponent(operationId)}/history`;
}
