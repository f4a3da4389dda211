import { resolve } from 'node:path';

/** Where events are stored. `pglite` is the embedded default; `postgres` a PostgreSQL server. */
export type StoreKind = 'pglite' | 'postgres';
export const STORE_KINDS: readonly StoreKind[] = ['pglite', 'postgres'];

/** Typed, validated configuration of one ledger process. Sizes in bytes, durations in ms. */
export interface LedgerConfig {
  readonly store: StoreKind;
  /** PGlite data directory (`pglite`); `memory://` keeps it in memory. */
  readonly dataDir: string;
  /** PostgreSQL connection string (`postgres`). */
  readonly databaseUrl: string | null;
  /** pg pool size (`postgres`). */
  readonly poolSize: number;
  readonly host: string;
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  /** Largest request body of single routes, bytes. */
  readonly maxBodyBytes: number;
  /** Largest body of POST /v1/claims/batch, bytes. */
  readonly maxBatchBodyBytes: number;
  /** Largest claim payload (its canonical JSON), bytes; larger → 413. */
  readonly maxPayloadBytes: number;
  /** Re-read/re-decide attempts after WrongExpectedVersion before answering 503. */
  readonly maxConcurrencyRetries: number;
  /** Store call timeout, ms (statement_timeout on PostgreSQL). */
  readonly storeTimeoutMs: number;
}

/** A configuration value was missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const DEFAULT_CONFIG: LedgerConfig = {
  store: 'pglite',
  dataDir: './data',
  databaseUrl: null,
  poolSize: 20,
  host: '127.0.0.1',
  port: 3000,
  maxBodyBytes: 1024 * 1024,
  maxBatchBodyBytes: 16 * 1024 * 1024,
  maxPayloadBytes: 256 * 1024,
  maxConcurrencyRetries: 8,
  storeTimeoutMs: 10_000,
};

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/**
 * Reads the configuration from environment variables (README "Configuration"):
 * LEDGER_STORE (pglite|postgres, default pglite), LEDGER_DATA_DIR (default ./data),
 * DATABASE_URL (required for postgres), LEDGER_POOL_SIZE, HOST (default 127.0.0.1), PORT (3000),
 * LEDGER_MAX_BODY_BYTES, LEDGER_MAX_BATCH_BODY_BYTES, LEDGER_MAX_PAYLOAD_BYTES,
 * LEDGER_MAX_CONCURRENCY_RETRIES, LEDGER_STORE_TIMEOUT_MS.
 * @throws ConfigError naming the variable at fault.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LedgerConfig {
  const store = (env.LEDGER_STORE ?? DEFAULT_CONFIG.store).trim() as StoreKind;
  if (!STORE_KINDS.includes(store)) {
    throw new ConfigError(`LEDGER_STORE must be one of ${STORE_KINDS.join(', ')}, got "${store}"`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (store === 'postgres' && !databaseUrl) {
    throw new ConfigError('DATABASE_URL is required when LEDGER_STORE=postgres');
  }
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const dataDir = env.LEDGER_DATA_DIR?.trim() || DEFAULT_CONFIG.dataDir;
  return {
    store,
    dataDir: dataDir.startsWith('memory://') ? dataDir : resolve(dataDir),
    databaseUrl,
    poolSize: intVar(env, 'LEDGER_POOL_SIZE', DEFAULT_CONFIG.poolSize, 1, 1000),
    host: env.HOST?.trim() || DEFAULT_CONFIG.host,
    port: intVar(env, 'PORT', DEFAULT_CONFIG.port, 0, 65535),
    maxBodyBytes: intVar(env, 'LEDGER_MAX_BODY_BYTES', DEFAULT_CONFIG.maxBodyBytes, 1024, 1 << 30),
    maxBatchBodyBytes: intVar(
      env,
      'LEDGER_MAX_BATCH_BODY_BYTES',
      DEFAULT_CONFIG.maxBatchBodyBytes,
      1024,
      1 << 30,
    ),
    maxPayloadBytes: intVar(env, 'LEDGER_MAX_PAYLOAD_BYTES', DEFAULT_CONFIG.maxPayloadBytes, 16, 1 << 30),
    maxConcurrencyRetries: intVar(
      env,
      'LEDGER_MAX_CONCURRENCY_RETRIES',
      DEFAULT_CONFIG.maxConcurrencyRetries,
      1,
      100,
    ),
    storeTimeoutMs: intVar(env, 'LEDGER_STORE_TIMEOUT_MS', DEFAULT_CONFIG.storeTimeoutMs, 100, 600_000),
  };
}
