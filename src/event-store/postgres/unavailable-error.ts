import { EventStoreUnavailableError } from '../event-store.port.js';

/**
 * SQLSTATEs meaning "the database cannot serve us now" (PostgreSQL Appendix A), plus the whole
 * classes 08 (connection exception) and 53 (insufficient resources).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '55P03', '25P03']);
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53'];

/** Node socket error codes of an unreachable server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
]);

/** Messages of pg / PGlite errors that carry no code (timeouts, dropped or closed connections). */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /connection error/i,
  /cannot use a pool after calling end/i,
  /client was closed/i,
  /PGlite is closed/i,
];

/** True when `error` means the database is unreachable, restarting, overloaded or timed out. */
export function isUnavailableError(error: unknown): boolean {
  if (error instanceof EventStoreUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (code.length === 5 && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) {
    return true;
  }
  return Array.isArray(errors) && errors.some(isUnavailableError); // AggregateError (IPv4 + IPv6)
}

/** `error` as an {@link EventStoreUnavailableError} when {@link isUnavailableError}, else unchanged. */
export function toUnavailableError(error: unknown): unknown {
  if (error instanceof EventStoreUnavailableError || !isUnavailableError(error)) return error;
  const reason = error instanceof Error && error.message ? error.message : String(error);
  return new EventStoreUnavailableError(`Event store unavailable: ${reason}`, error);
}
