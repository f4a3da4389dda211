import { resolve } from 'node:path';
import { eventStoreConnectionStringProblem } from './eventstore-connection-string.js';
import { parsePostgresUrl, PostgresUrlError } from './postgres-url.js';
import { ConfigError, intVar, onOff } from './env-vars.js';

export { ConfigError };

/**
 * Where events are stored. `pglite` is the embedded default; `postgres` a PostgreSQL server;
 * `eventstoredb` an EventStoreDB node or cluster (read models and keys then stay in SQL).
 */
export type StoreKind = 'pglite' | 'postgres' | 'eventstoredb';
export const STORE_KINDS: readonly StoreKind[] = ['pglite', 'postgres', 'eventstoredb'];

/** Whether requests need an API key. `disabled` must be chosen explicitly (LEDGER_AUTH=disabled). */
export type AuthMode = 'enabled' | 'disabled';
export const AUTH_MODES: readonly AuthMode[] = ['enabled', 'disabled'];

/** Host names that only accept connections from this machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '::1', 'localhost'];

/** Typed, validated configuration of one ledger process. Sizes in bytes, durations in ms. */
export interface LedgerConfig {
  readonly store: StoreKind;
  /** PGlite data directory (also `eventstoredb`'s read models without DATABASE_URL); `memory://`. */
  readonly dataDir: string;
  /** PostgreSQL connection string (`postgres`; `eventstoredb`: the read models' database, optional). */
  readonly databaseUrl: string | null;
  /** EventStoreDB connection string (`eventstoredb` only, else null), e.g. `esdb://host:2113?tls=false`. */
  readonly eventStoreConnectionString: string | null;
  /** pg pool size (`postgres`). */
  readonly poolSize: number;
  readonly host: string;
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  /** Largest request body of single routes, bytes. */
  readonly maxBodyBytes: number;
  /** Largest body of POST /v1/claims/batch, bytes. */
  readonly maxBatchBodyBytes: number;
  /** Batch requests read and handled at once per process; more → 429 `rate-limited`, Retry-After 1. */
  readonly maxConcurrentBatches: number;
  /** Largest claim payload (its canonical JSON), bytes; larger → 413. */
  readonly maxPayloadBytes: number;
  /** Re-read/re-decide attempts after WrongExpectedVersion before answering 503. */
  readonly maxConcurrencyRetries: number;
  /** Window of the coalesced audit of duplicate claims, ms (docs/domain.md "Audit of duplicate claims"). */
  readonly duplicateAuditWindowMs: number;
  /** Store call timeout, ms (statement_timeout on PostgreSQL). */
  readonly storeTimeoutMs: number;
  /** Longest time to receive one request, ms (408); a streamed upload: longest silence. */
  readonly requestTimeoutMs: number;
  /** API key authentication; `disabled` only binds to loopback (src/auth). */
  readonly auth: AuthMode;
  /** A token `olk_<id>_<secret>` to install as the admin `*` key at start-up (LEDGER_ADMIN_TOKEN). */
  readonly adminToken: string | null;
  /** Requests one API key may make per {@link rateLimitWindowMs}; 0 turns rate limiting off. */
  readonly rateLimitPerKey: number;
  /** Window of the per-key rate limit, ms. */
  readonly rateLimitWindowMs: number;
  /** Open SSE subscriptions one API key may hold at once. */
  readonly maxSsePerKey: number;
  /** Open SSE subscriptions this process serves at once, whatever their keys; more → 503. */
  readonly maxSubscriptions: number;
  /** Socket writes per second one live feed's fan-out aims to stay under. */
  readonly sseFanOutWritesPerS: number;
  /** How long a verified key stays cached, ms (0: none): a revocation elsewhere takes this long. */
  readonly authCacheMs: number;
  /** Run the projectors in this process (`LEDGER_PROJECTOR=off`: serve read models only). */
  readonly projector: boolean;
  /** Events per projector batch (= per read-model transaction). */
  readonly projectorBatchSize: number;
  /** Fallback poll of a live projector when no append wake-up arrives, ms. */
  readonly projectorPollMs: number;
  /** How often a standby instance tries to take over a read model's lock, ms. */
  readonly projectorLockPollMs: number;
  /** Least time between the starts of two live projector batches, ms; null: the database's default. */
  readonly projectorIntervalMs: number | null;
  /** Interval of the lease sweeper, ms; 0 turns it off in this process. */
  readonly sweepIntervalMs: number;
  /** Interval of the retention job, ms; 0 turns it off in this process. */
  readonly retentionIntervalMs: number;
  /** Action policies applied at start-up from this JSON file (null: none). */
  readonly policyFile: string | null;
  /** Keep-alive idle time promised to clients, ms (docs/decisions.md "Keep-alive"). */
  readonly keepAliveTimeoutMs: number;
  /** How long a stop signal may take, ms (docs/production.md "Stopping"). */
  readonly shutdownGraceMs: number;
  /** Free space the embedded store keeps, bytes; below it writes answer 503 (docs/production.md "Disk space"). */
  readonly diskReserveBytes: number;
  /** How often an open SSE subscription re-checks that its API key is not revoked, ms. */
  readonly sseKeyRecheckMs: number;
}

export const DEFAULT_CONFIG: LedgerConfig = {
  store: 'pglite',
  dataDir: './data',
  databaseUrl: null,
  eventStoreConnectionString: null,
  poolSize: 20,
  host: '127.0.0.1',
  port: 3000,
  maxBodyBytes: 1024 * 1024,
  maxBatchBodyBytes: 16 * 1024 * 1024,
  maxPayloadBytes: 256 * 1024,
  maxConcurrentBatches: 4,
  maxConcurrencyRetries: 8,
  duplicateAuditWindowMs: 10_000,
  storeTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  auth: 'enabled',
  adminToken: null,
  rateLimitPerKey: 2000,
  rateLimitWindowMs: 1000,
  maxSsePerKey: 10,
  maxSubscriptions: 5_000,
  sseFanOutWritesPerS: 4_000,
  authCacheMs: 5000,
  projector: true,
  projectorBatchSize: 500,
  projectorPollMs: 1000,
  projectorLockPollMs: 2000,
  projectorIntervalMs: null,
  sweepIntervalMs: 5_000,
  retentionIntervalMs: 600_000,
  policyFile: null,
  keepAliveTimeoutMs: 60_000,
  shutdownGraceMs: 10_000,
  diskReserveBytes: 24 * 1024 * 1024,
  sseKeyRecheckMs: 2_000,
};

/**
 * Reads the configuration from environment variables; each one, its default and its range are in
 * docs/configuration.md (test/release/docs.unit.spec.ts checks that the list is complete).
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
  if (databaseUrl) {
    try {
      parsePostgresUrl(databaseUrl); // several hosts and target_session_attrs: docs/production-ha.md
    } catch (error) {
      if (error instanceof PostgresUrlError) throw new ConfigError(`DATABASE_URL ${error.message}`);
      throw error;
    }
  }
  const eventStoreConnectionString =
    store === 'eventstoredb' ? env.EVENTSTORE_CONNECTION_STRING?.trim() || null : null;
  if (store === 'eventstoredb') {
    if (!eventStoreConnectionString) {
      throw new ConfigError(
        'EVENTSTORE_CONNECTION_STRING is required when LEDGER_STORE=eventstoredb (e.g. esdb://localhost:2113?tls=false)',
      );
    }
    const problem = eventStoreConnectionStringProblem(eventStoreConnectionString);
    if (problem) throw new ConfigError(`EVENTSTORE_CONNECTION_STRING ${problem}`);
  }
  const dataDir = env.LEDGER_DATA_DIR?.trim() || DEFAULT_CONFIG.dataDir;
  const host = env.HOST?.trim() || DEFAULT_CONFIG.host;
  const auth = (env.LEDGER_AUTH?.trim() || DEFAULT_CONFIG.auth) as AuthMode;
  if (!AUTH_MODES.includes(auth)) {
    throw new ConfigError(`LEDGER_AUTH must be one of ${AUTH_MODES.join(', ')}, got "${auth}"`);
  }
  if (auth === 'disabled' && !LOOPBACK_HOSTS.includes(host)) {
    throw new ConfigError(
      `LEDGER_AUTH=disabled binds to loopback only: HOST must be one of ${LOOPBACK_HOSTS.join(', ')}, got "${host}"`,
    );
  }
  const adminToken = env.LEDGER_ADMIN_TOKEN?.trim() || null;
  if (adminToken && !/^olk_[0-9a-f]{24}_[A-Za-z0-9_-]{43,128}$/.test(adminToken)) {
    throw new ConfigError(
      'LEDGER_ADMIN_TOKEN must look like olk_<24 hex>_<43+ base64url> (make one with `npm run keys -- token`)',
    );
  }
  return {
    store,
    dataDir: dataDir.startsWith('memory://') ? dataDir : resolve(dataDir),
    databaseUrl,
    eventStoreConnectionString,
    poolSize: intVar(env, 'LEDGER_POOL_SIZE', DEFAULT_CONFIG.poolSize, 1, 1000),
    host,
    port: intVar(env, 'PORT', DEFAULT_CONFIG.port, 0, 65535),
    maxBodyBytes: intVar(env, 'LEDGER_MAX_BODY_BYTES', DEFAULT_CONFIG.maxBodyBytes, 1024, 1 << 30),
    maxBatchBodyBytes: intVar(
      env,
      'LEDGER_MAX_BATCH_BODY_BYTES',
      DEFAULT_CONFIG.maxBatchBodyBytes,
      1024,
      1 << 30,
    ),
    maxConcurrentBatches: intVar(
      env,
      'LEDGER_MAX_CONCURRENT_BATCHES',
      DEFAULT_CONFIG.maxConcurrentBatches,
      1,
      1000,
    ),
    maxPayloadBytes: intVar(env, 'LEDGER_MAX_PAYLOAD_BYTES', DEFAULT_CONFIG.maxPayloadBytes, 16, 1 << 30),
    maxConcurrencyRetries: intVar(
      env,
      'LEDGER_MAX_CONCURRENCY_RETRIES',
      DEFAULT_CONFIG.maxConcurrencyRetries,
      1,
      100,
    ),
    duplicateAuditWindowMs: intVar(
      env,
      'LEDGER_DUPLICATE_AUDIT_WINDOW_MS',
      DEFAULT_CONFIG.duplicateAuditWindowMs,
      0,
      3_600_000,
    ),
    storeTimeoutMs: intVar(env, 'LEDGER_STORE_TIMEOUT_MS', DEFAULT_CONFIG.storeTimeoutMs, 100, 600_000),
    requestTimeoutMs: intVar(
      env,
      'LEDGER_REQUEST_TIMEOUT_MS',
      DEFAULT_CONFIG.requestTimeoutMs,
      1000,
      3_600_000,
    ),
    auth,
    adminToken,
    rateLimitPerKey: intVar(env, 'LEDGER_RATE_LIMIT', DEFAULT_CONFIG.rateLimitPerKey, 0, 1_000_000),
    rateLimitWindowMs: intVar(
      env,
      'LEDGER_RATE_LIMIT_WINDOW_MS',
      DEFAULT_CONFIG.rateLimitWindowMs,
      100,
      3_600_000,
    ),
    maxSsePerKey: intVar(env, 'LEDGER_MAX_SSE_PER_KEY', DEFAULT_CONFIG.maxSsePerKey, 1, 10_000),
    maxSubscriptions: intVar(env, 'LEDGER_MAX_SUBSCRIPTIONS', DEFAULT_CONFIG.maxSubscriptions, 1, 1_000_000),
    sseFanOutWritesPerS: intVar(
      env,
      'LEDGER_SSE_FAN_OUT_WRITES_PER_S',
      DEFAULT_CONFIG.sseFanOutWritesPerS,
      100,
      1_000_000,
    ),
    authCacheMs: intVar(env, 'LEDGER_AUTH_CACHE_MS', DEFAULT_CONFIG.authCacheMs, 0, 3_600_000),
    projector: onOff(env, 'LEDGER_PROJECTOR', DEFAULT_CONFIG.projector),
    projectorBatchSize: intVar(
      env,
      'LEDGER_PROJECTOR_BATCH_SIZE',
      DEFAULT_CONFIG.projectorBatchSize,
      1,
      10_000,
    ),
    projectorPollMs: intVar(env, 'LEDGER_PROJECTOR_POLL_MS', DEFAULT_CONFIG.projectorPollMs, 10, 600_000),
    projectorLockPollMs: intVar(
      env,
      'LEDGER_PROJECTOR_LOCK_POLL_MS',
      DEFAULT_CONFIG.projectorLockPollMs,
      50,
      600_000,
    ),
    projectorIntervalMs: env.LEDGER_PROJECTOR_INTERVAL_MS?.trim()
      ? intVar(env, 'LEDGER_PROJECTOR_INTERVAL_MS', 0, 0, 60_000)
      : DEFAULT_CONFIG.projectorIntervalMs,
    sweepIntervalMs: intVar(env, 'LEDGER_SWEEP_INTERVAL_MS', DEFAULT_CONFIG.sweepIntervalMs, 0, 3_600_000),
    retentionIntervalMs: intVar(
      env,
      'LEDGER_RETENTION_INTERVAL_MS',
      DEFAULT_CONFIG.retentionIntervalMs,
      0,
      24 * 3_600_000,
    ),
    policyFile: env.LEDGER_POLICY_FILE?.trim() || null,
    keepAliveTimeoutMs: intVar(
      env,
      'LEDGER_KEEP_ALIVE_TIMEOUT_MS',
      DEFAULT_CONFIG.keepAliveTimeoutMs,
      1000,
      3_600_000,
    ),
    shutdownGraceMs: intVar(env, 'LEDGER_SHUTDOWN_GRACE_MS', DEFAULT_CONFIG.shutdownGraceMs, 1000, 600_000),
    sseKeyRecheckMs: intVar(env, 'LEDGER_SSE_KEY_RECHECK_MS', DEFAULT_CONFIG.sseKeyRecheckMs, 50, 600_000),
    diskReserveBytes: intVar(env, 'LEDGER_DISK_RESERVE_MIB', 24, 0, 1_048_576) * 1024 * 1024,
  };
}
