import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import { pgliteStartParams } from '../../src/event-store/postgres/pglite-start-params.js';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { installLedgerSchemas } from '../../src/ledger-schemas.js';

/**
 * A freshly initialised, EMPTY PGlite cluster as a data-directory dump (PGlite `dumpDataDir`,
 * uncompressed tar), for `new PGlite({ loadDataDir })`. Every in-memory PGlite of the tests runs
 * initdb first (2–3 CPU-s in WebAssembly); restoring this dump instead costs about 0.35 CPU-s. The
 * dump holds what initdb makes minus the databases `template0` and `template1` (dropped: no test
 * creates a database in PGlite, and their 600 files were a fifth of every restore's CPU) — no
 * ledger schema: stores, apps and migration tests applying migrations to it run every one of them.
 * {@link pgliteMigratedSnapshot} is the same cluster with the ledger's schemas installed.
 *
 * Built once per PGlite version and kept in `node_modules/.cache/operation-ledger-tests/` (worker
 * processes racing to build it each write a temporary file and rename it into place, so readers
 * never see a partial file). Delete that directory to rebuild it. Read once per Jest worker process
 * (test/support/ledger-environment.js).
 *
 * The Blob hands every PGlite of this process the SAME bytes, without a copy: the dump is 25 MB (a
 * 16 MB WAL segment among it), and Node's `Blob` costs about 0.2 CPU-s to make and 0.3 CPU-s per
 * `arrayBuffer()` at 40 MB — a third of a PGlite start. PGlite's `loadDataDir` only reads them
 * (its untar copies each file out). For a PGlite in a worker thread, which takes ownership of the
 * bytes (`PgliteThread` transfers them), use {@link pgliteSnapshotToTransfer}.
 */
export async function pgliteSnapshot(): Promise<Blob> {
  return new SharedBytes(await snapshotBytes());
}

/** {@link pgliteSnapshot} as a Blob of its own (a copy), for a receiver that takes the bytes. */
export async function pgliteSnapshotToTransfer(): Promise<Blob> {
  return new Blob([await snapshotBytes()]);
}

/**
 * {@link pgliteSnapshot} with every ledger schema installed (`installLedgerSchemas`, as the build's
 * initdb template holds them), for the in-memory ledgers of `startTestLedger`: their start then
 * finds every migration recorded instead of applying them (≈ 0.15 CPU-s per start). Kept per
 * PGlite version and per {@link schemaKey}, so a changed or added migration gets a new dump.
 * Migrations themselves stay under test where a store or app starts on {@link pgliteSnapshot}, a
 * data directory or PostgreSQL, and in test/event-store/schema-upgrade.int.spec.ts.
 */
export async function pgliteMigratedSnapshot(): Promise<Blob> {
  schema ??= schemaKey();
  const kind = `migrated-${await schema}`;
  return new SharedBytes(
    await dump(kind, async () =>
      dumpAfter(await pgliteSnapshot(), (db) => installLedgerSchemas(new PgliteExecutor(db)).then(() => {})),
    ),
  );
}

/** A new in-memory PGlite restored from {@link pgliteSnapshot}, ready for queries. */
export async function newPglite(): Promise<PGlite> {
  const db = new PGlite({ loadDataDir: await pgliteSnapshot(), startParams: pgliteStartParams() });
  await db.waitReady;
  return db;
}

/**
 * A read-only Blob over bytes shared with other readers: `arrayBuffer()` answers them without a
 * copy (the caller must not write to or transfer them). `size`, `stream()` and structured cloning
 * see an empty Blob, so a misuse across threads fails loudly (PGlite refuses an empty dump).
 */
class SharedBytes extends Blob {
  constructor(private readonly shared: ArrayBuffer) {
    super([]);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.shared);
  }
}

/** The plain dump's name. */
const PLAIN = 'initdb-no-templates';

/** The dump's bytes, read (or built) once per worker process. */
function snapshotBytes(): Promise<ArrayBuffer> {
  return dump(PLAIN, () =>
    // one at a time: DROP DATABASE refuses to run in a multi-statement script's transaction
    dumpAfter(undefined, async (db) => {
      for (const statement of DROP_TEMPLATE_DATABASES) await db.exec(statement);
    }),
  );
}

/**
 * The dump named `kind`: read once per Jest worker (the worker-wide Map of
 * test/support/ledger-environment.js; a Map of this file's own outside that environment), from
 * its file, or `build()` and written there first ({@link cachedDump}). A failure is not kept.
 */
function dump(kind: string, build: () => Promise<ArrayBuffer>): Promise<ArrayBuffer> {
  const cache = ((globalThis as { __ledgerWorkerCache?: Map<string, unknown> }).__ledgerWorkerCache ??=
    new Map()) as Map<string, Promise<ArrayBuffer>>;
  const entry = `pglite-dump:${kind}`;
  let bytes = cache.get(entry);
  if (!bytes) {
    bytes = cachedDump(kind, build).catch((error: unknown) => {
      cache.delete(entry);
      throw error;
    });
    cache.set(entry, bytes);
  }
  return bytes;
}

/**
 * A new in-memory PGlite (initdb, or restored from `from`), `prepare`d, checkpointed (a restore
 * then replays no WAL) and dumped; closed either way.
 */
async function dumpAfter(
  from: Blob | undefined,
  prepare: (db: PGlite) => Promise<void>,
): Promise<ArrayBuffer> {
  const db = new PGlite({ loadDataDir: from, startParams: pgliteStartParams() });
  try {
    await db.waitReady;
    await prepare(db);
    await db.exec('checkpoint');
    return await (await db.dumpDataDir('none')).arrayBuffer();
  } finally {
    await db.close();
  }
}

const DROP_TEMPLATE_DATABASES = [
  'alter database template0 is_template false',
  'drop database template0',
  'alter database template1 is_template false',
  'drop database template1',
];

/**
 * Makes `dataDir` (created if missing; expected empty) a freshly initialised PGlite cluster, as
 * the first start of a server would leave it before applying migrations: {@link pgliteSnapshot}
 * unpacked with the system's tar. For tests that start the server as a process on a data
 * directory of their own; it saves that process initdb (2–4 CPU-s).
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  await snapshotBytes();
  await mkdir(dataDir, { recursive: true });
  execFileSync('tar', ['-xf', await dumpFile(PLAIN), '-C', dataDir]);
}

/** {@link schemaKey}, once per test file. */
let schema: Promise<string> | undefined;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the dump named `kind` of this PGlite version is kept. */
async function dumpFile(kind: string): Promise<string> {
  const manifest = await readFile(
    join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
    'utf8',
  );
  const { version } = JSON.parse(manifest) as { version: string };
  return join(ROOT, 'node_modules', '.cache', 'operation-ledger-tests', `pglite-${version}-${kind}.tar`);
}

/** The dump `kind` from its file, or `build()` written there first (a temporary file renamed into place). */
async function cachedDump(kind: string, build: () => Promise<ArrayBuffer>): Promise<ArrayBuffer> {
  const file = await dumpFile(kind);
  const cached = await readFile(file).catch(() => undefined);
  if (cached) return ownBuffer(cached);
  const bytes = await build();
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}`;
  await writeFile(partial, Buffer.from(bytes));
  await rename(partial, file);
  return bytes;
}

/**
 * A digest of every migration `installLedgerSchemas` would apply to an empty database (versions,
 * names and SQL, in order), taken by running it against an executor that records instead of
 * executing: the migrated dump's name, so it is rebuilt whenever a migration changes.
 */
async function schemaKey(): Promise<string> {
  const hash = createHash('sha256');
  const recorder: SqlExecutor = {
    query: (sql, params) => {
      hash.update(`${sql}\0${JSON.stringify(params ?? [])}\0`);
      return Promise.resolve({ rows: [] });
    },
    queryPrepared: (_name, sql, params) => recorder.query(sql, params),
    exec: (script) => {
      hash.update(`${script}\0`);
      return Promise.resolve();
    },
    transaction: (fn) => fn(recorder),
  };
  await installLedgerSchemas(recorder);
  return hash.digest('hex').slice(0, 16);
}

/** `buffer`'s bytes as an ArrayBuffer of their own (readFile's usually is: then no copy). */
function ownBuffer(buffer: Buffer): ArrayBuffer {
  const whole = buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength;
  const bytes = whole
    ? buffer.buffer
    : buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  return bytes as ArrayBuffer;
}
