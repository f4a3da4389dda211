import { fetchSender, type Sender } from './sender.js';

/** Which client sends the JSON requests by default in this runtime. */
export const DEFAULT_SENDER = 'fetch';

/**
 * The default {@link Sender} outside Node (browsers, Deno, Bun, edge runtimes): the global
 * `fetch`, looked up per request so a polyfill installed later still counts.
 */
export function defaultSender(baseUrl: string): Sender {
  return fetchSender(baseUrl, (input, init) => fetch(input, init));
}
