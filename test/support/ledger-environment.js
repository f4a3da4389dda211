/**
 * Jest's node environment, plus one object shared by every test file a worker process runs:
 * `globalThis.__ledgerWorkerCache`, a Map. Jest gives each test file a new global object and
 * module registry, so a module-level cache in a test helper lives for one file; what is cached
 * here is read or built once per worker. Only immutable values belong in it (they are seen by
 * many files): ./pglite-snapshot.ts keeps the PGlite dumps' bytes there — 25 MB each, read from
 * disk by every file before, and held until the worker ended (a file's context is never freed in
 * Node 20's vm modules), which made every later garbage collection of the worker dearer.
 */
import { TestEnvironment } from 'jest-environment-node';

const workerCache = new Map();

export default class LedgerEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__ledgerWorkerCache = workerCache;
  }
}
