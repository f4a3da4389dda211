import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pgliteStartParams } from '../../src/event-store/postgres/pglite-start-params.js';

/**
 * A freshly initialised, EMPTY PGlite cluster as a data-directory dump (PGlite `dumpDataDir`,
 * uncompressed tar), for `new PGlite({ loadDataDir })`. Every in-memory PGlite of the tests runs
 * initdb first (2–3 CPU-s in WebAssembly); restoring this dump instead costs about 0.5 CPU-s. The
 * dump holds only what initdb makes — no ledger schema: stores and apps still apply every migration
 * themselves, so migrations stay under test.
 *
 * Built once per PGlite version and kept in `node_modules/.cache/operation-ledger-tests/` (worker
 * processes racing to build it each write a temporary file and rename it into place, so readers
 * never see a partial file). Delete that directory to rebuild it. Memoised per test file.
 *
 * The Blob hands every PGlite of this process the SAME bytes, without a copy: the dump is 40 MB (a
 * 16 MB WAL segment among it), and Node's `Blob` costs about 0.2 CPU-s to make and 0.3 CPU-s per
 * `arrayBuffer()` at that size — a third of a PGlite start. PGlite's `loadDataDir` only reads them
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

/** The dump's bytes, read (or built) once per test file. */
function snapshotBytes(): Promise<ArrayBuffer> {
  snapshot ??= loadOrBuild().catch((error: unknown) => {
    snapshot = undefined;
    throw error;
  });
  return snapshot;
}

/**
 * Makes `dataDir` (created if missing; expected empty) a freshly initialised PGlite cluster, as
 * the first start of a server would leave it before applying migrations: {@link pgliteSnapshot}
 * unpacked with the system's tar. For tests that start the server as a process on a data
 * directory of their own; it saves that process initdb (2–4 CPU-s).
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  await snapshotBytes();
  await mkdir(dataDir, { recursive: true });
  execFileSync('tar', ['-xf', await snapshotFile(), '-C', dataDir]);
}

let snapshot: Promise<ArrayBuffer> | undefined;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the dump of this PGlite version is kept. */
async function snapshotFile(): Promise<string> {
  const manifest = await readFile(
    join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
    'utf8',
  );
  const { version } = JSON.parse(manifest) as { version: string };
  return join(ROOT, 'node_modules', '.cache', 'operation-ledger-tests', `pglite-${version}-initdb.tar`);
}

async function loadOrBuild(): Promise<ArrayBuffer> {
  const file = await snapshotFile();
  const cached = await readFile(file).catch(() => undefined);
  if (cached) return ownBuffer(cached);
  const db = new PGlite();
  let dump: Blob;
  try {
    await db.waitReady;
    dump = await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}`;
  const bytes = await dump.arrayBuffer();
  await writeFile(partial, Buffer.from(bytes));
  await rename(partial, file);
  return bytes;
}

/** `buffer`'s bytes as an ArrayBuffer of their own (readFile's usually is: then no copy). */
function ownBuffer(buffer: Buffer): ArrayBuffer {
  const whole = buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength;
  const bytes = whole
    ? buffer.buffer
    : buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  return bytes as ArrayBuffer;
}
