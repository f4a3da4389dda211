import { LOOPBACK_HOSTS } from '../config/ledger-config.js';

/**
 * Whether binding to `host` accepts connections from this machine only: `127.0.0.0/8`, `::1`,
 * `localhost`. An omitted host (Node binds every interface) is not loopback.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined || host === '') return false;
  return LOOPBACK_HOSTS.includes(host) || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}
