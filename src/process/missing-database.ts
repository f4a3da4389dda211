import { parsePostgresUrl } from '../config/postgres-url.js';

/** SQLSTATE of a connection to a database that does not exist (PostgreSQL docs, Appendix A). */
const INVALID_CATALOG_NAME = '3D000';

/**
 * The line a start against a missing PostgreSQL database ends with: its name and the `createdb`
 * command (with the URL's user, never its password).
 * @returns the line, or null for any other error (or without a `databaseUrl`).
 */
export function missingDatabaseLine(err: unknown, databaseUrl: string | null): string | null {
  if (!databaseUrl || !(err instanceof Error) || (err as { code?: unknown }).code !== INVALID_CATALOG_NAME)
    return null;
  const name = /database "(.+)" does not exist/.exec(err.message)?.[1];
  if (!name) return null;
  let where = '';
  try {
    const url = parsePostgresUrl(databaseUrl);
    const host = url.hosts[0];
    const user = /^[^:]+:\/\/([^:@/]+)(?::[^@/]*)?@/.exec(url.singleHost())?.[1];
    where = [host ? `-h ${host.host} -p ${host.port}` : '', user ? `-U ${decodeURIComponent(user)}` : '']
      .filter(Boolean)
      .map((s) => `${s} `)
      .join('');
  } catch {
    // an unparsable URL never gets this far (the pool refuses it first); name only the database
  }
  return (
    `database "${name}" does not exist: create it with \`createdb ${where}${name}\` ` +
    '(or CREATE DATABASE in psql), or set DATABASE_URL to an existing database'
  );
}
