import { Agent, type Dispatcher } from 'undici';
import type { Sender } from './sender.js';

/** Which client sends the JSON requests by default in this runtime. */
export const DEFAULT_SENDER = 'undici';

/**
 * Where undici (npm's and the copy inside Node that runs `fetch`) keeps the dispatcher set with
 * `setGlobalDispatcher` (https://undici.nodejs.org/#/docs/api/GlobalInstallation), read directly:
 * undici's `getGlobalDispatcher()` would install an agent of its own when there is none.
 */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * The agent used while no global dispatcher is set: one for every client of the process, as
 * `fetch` shares one — a keep-alive pool per origin, no bound on connections. Its idle sockets are
 * unref'd, so it does not keep the process alive (undici's `Client`).
 */
let shared: Agent | null = null;

/** The global dispatcher when one is set (a proxy agent, a `MockAgent`, `fetch`'s own), else ours. */
function dispatcher(): Dispatcher {
  return (
    (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER] ?? (shared ??= new Agent())
  );
}

/**
 * The default {@link Sender} on Node: undici's `Dispatcher.request`, without the WHATWG layers
 * that cost `fetch` several times the CPU per request (docs/decisions.md "The SDK sends on
 * undici's `Dispatcher.request` on Node, `fetch` elsewhere"); through the global dispatcher.
 * @param baseUrl the ledger's root, possibly with a path prefix (no trailing slash)
 */
export function defaultSender(baseUrl: string): Sender {
  const url = new URL(baseUrl);
  const origin = url.origin;
  const prefix = url.pathname === '/' ? '' : url.pathname;
  return async ({ method, path, headers, body, signal }) => {
    const res = await dispatcher().request({
      origin,
      path: `${prefix}${path}`,
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      signal,
    });
    const text = await res.body.text();
    const raw = res.headers;
    let built: Headers | null = null;
    return {
      status: res.statusCode,
      get headers() {
        return (built ??= toHeaders(raw));
      },
      text,
    };
  };
}

/** undici's header record (arrays for repeated headers) as WHATWG `Headers`. */
function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const h = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) h.append(name, v);
    else if (value !== undefined) h.append(name, value);
  }
  return h;
}
