import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateToken } from '../../src/auth/api-key-token.js';
import { createBenchDatabase, type BenchDatabase } from '../postgres-bench-db.js';
import { startServer, type ServerProcess } from './server-process.js';

/** The server's entry point as `npm start` runs it (`node dist/server/main.js`, the bundle). */
const MAIN = fileURLToPath(new URL('../../server/main.js', import.meta.url));

/** How one ledger server of the benchmark is configured. */
export interface LedgerServerSpec {
  readonly name: string;
  readonly store: 'postgres' | 'pglite';
  /** LEDGER_PROJECTOR: on as deployed, off for the projector-cost row. */
  readonly projector: boolean;
  /** PostgreSQL admin URL; a fresh database is created for this server (`postgres` only). */
  readonly pgAdminUrl: string;
  /** Temporary directory for the PGlite data and the log. */
  readonly workDir: string;
  /** Worker keys to create (one per load-generator connection, as a worker fleet would hold). */
  readonly workerKeys: number;
  /** Entry point to run instead of this build's `dist/src/main.js` (the `--ledger-a` build). */
  readonly main?: string;
  /** More environment configuration (docs/configuration.md), e.g. `LEDGER_RATE_LIMIT`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Node.js options of the server process, e.g. `--cpu-prof` (see ServerSpec.nodeArgs). */
  readonly nodeArgs?: readonly string[];
}

/** A running ledger with its worker tokens. */
export interface LedgerServer {
  readonly process: ServerProcess;
  /** The fresh database (`postgres`), dropped by {@link stop}; null on PGlite. */
  readonly database: BenchDatabase | null;
  /** Bearer tokens of role `worker`, tenant `bench-gmbh`. */
  readonly workerTokens: readonly string[];
  /** The first admin key's token (`LEDGER_ADMIN_TOKEN`), to create other keys with. */
  readonly adminToken: string;
  stop(): Promise<void>;
}

/**
 * Starts `node dist/src/main.js` as a deployment does (docs/configuration.md): environment
 * config only, auth enabled, the first admin key chosen with `LEDGER_ADMIN_TOKEN` (docs/security.md
 * "The first key": installed at start-up when the database has no such key). That admin creates the
 * worker keys through POST /v1/admin/keys. The per-key rate limit stays at its default; the
 * keys split the load between them.
 * @throws Error when the server does not start or refuses a key.
 */
export async function startLedgerServer(spec: LedgerServerSpec): Promise<LedgerServer> {
  const database = spec.store === 'postgres' ? await createBenchDatabase(spec.pgAdminUrl) : null;
  const admin = generateToken().token;
  const env: Record<string, string> = {
    LEDGER_ADMIN_TOKEN: admin,
    LEDGER_PROJECTOR: spec.projector ? 'on' : 'off',
    LEDGER_DATA_DIR: join(spec.workDir, `${spec.name}-data`),
    ...spec.env,
  };
  if (database) Object.assign(env, { LEDGER_STORE: 'postgres', DATABASE_URL: database.connectionString });
  let server: ServerProcess;
  try {
    server = await startServer({
      name: spec.name,
      script: spec.main ?? MAIN,
      env,
      readyPath: '/health',
      logFile: join(spec.workDir, `${spec.name}.log`),
      startTimeoutMs: 60_000,
      nodeArgs: spec.nodeArgs,
    });
  } catch (err) {
    await database?.drop();
    throw err;
  }
  const stop = async () => {
    await server.stop();
    await database?.drop();
  };
  try {
    const workerTokens: string[] = [];
    for (let i = 0; i < spec.workerKeys; i++) {
      workerTokens.push(await createBenchKey(server.url, admin, `bench-worker-${i}`, ['worker']));
    }
    return { process: server, database, workerTokens, adminToken: admin, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Creates an API key of tenant `bench-gmbh` with `roles` through `POST /v1/admin/keys` and
 * resolves to its token. @throws Error with the answer when it is not 201.
 */
export async function createBenchKey(
  url: string,
  adminToken: string,
  name: string,
  roles: readonly string[],
): Promise<string> {
  const res = await fetch(`${url}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'bench-gmbh', roles, name }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 201 || typeof body.token !== 'string') {
    throw new Error(`POST /v1/admin/keys answered ${res.status}: ${JSON.stringify(body)}`);
  }
  return body.token;
}
