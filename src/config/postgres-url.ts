/** One server of a PostgreSQL connection string. */
export interface PostgresHost {
  readonly host: string;
  readonly port: number;
}

/** libpq `target_session_attrs` (PostgreSQL docs "Connection Strings" § 34.1.2). */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';
const WRITABLE_TARGETS: readonly TargetSessionAttrs[] = ['any', 'read-write', 'primary'];

/** A parsed `postgres://` / `postgresql://` URL that may name several hosts. */
export interface PostgresUrl {
  /** The hosts in the order given (empty: none in the URL, the driver's default applies). */
  readonly hosts: readonly PostgresHost[];
  readonly targetSessionAttrs: TargetSessionAttrs;
  /** The URL with only `hosts[index]` and no `target_session_attrs`: what `pg` can parse. */
  singleHost(index?: number): string;
}

/** The connection string is malformed; the message says what is wrong (never the password). */
export class PostgresUrlError extends Error {
  override readonly name = 'PostgresUrlError';
}

const URL_SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/;
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^:[\],]+)(?::(\d*))?$/;

/**
 * Parses a libpq-style URL with one or several comma-separated hosts,
 * `postgresql://user:pw@h1:5432,h2:5433/db?target_session_attrs=read-write` (PostgreSQL docs
 * "Connection URIs"). `target_session_attrs`: `any` (default), `read-write`, `primary` — the
 * ledger writes, so the read-only choices are refused.
 * @throws PostgresUrlError for another scheme, an empty host in a list, a port outside 1…65535 or
 *   an unsupported `target_session_attrs`.
 */
export function parsePostgresUrl(url: string): PostgresUrl {
  const match = URL_SHAPE.exec(url.trim());
  if (!match)
    throw new PostgresUrlError('must look like postgres://[user[:password]@]host[:port][,…]/database');
  const [, scheme, userinfo, hostList = '', path = '', query = '', fragment = ''] = match;
  const hosts = hostList === '' ? [] : hostList.split(',').map(parseHost);
  const params = new URLSearchParams(query.slice(1));
  const attrs = (params.get('target_session_attrs') ?? 'any') as TargetSessionAttrs;
  if (!WRITABLE_TARGETS.includes(attrs)) {
    throw new PostgresUrlError(
      `target_session_attrs must be one of ${WRITABLE_TARGETS.join(', ')} (the ledger writes), got "${attrs}"`,
    );
  }
  params.delete('target_session_attrs');
  const rest = `${path}${params.size > 0 ? `?${params.toString()}` : ''}${fragment}`;
  const auth = userinfo === undefined ? '' : `${userinfo}@`;
  return {
    hosts,
    targetSessionAttrs: attrs,
    singleHost(index = 0) {
      const host = hosts[index];
      if (hosts.length > 0 && !host) throw new RangeError(`no host at index ${index}`);
      return `${scheme}${auth}${host ? `${host.host.includes(':') ? `[${host.host}]` : host.host}:${host.port}` : ''}${rest}`;
    },
  };
}

function parseHost(entry: string): PostgresHost {
  const match = HOST_PORT.exec(entry);
  if (!match) throw new PostgresUrlError(`host "${entry}" must be host[:port] (IPv6 in brackets)`);
  const [, name, port] = match;
  const host = name!.startsWith('[') ? name!.slice(1, -1) : decodeURIComponent(name!);
  if (port === undefined || port === '') return { host, port: 5432 };
  const n = Number(port);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    throw new PostgresUrlError(`port of host "${entry}" must be between 1 and 65535`);
  }
  return { host, port: n };
}
