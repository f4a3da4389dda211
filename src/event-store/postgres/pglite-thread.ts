import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { PgliteConnection } from './pglite-connection.js';

/** What the thread opens: a data directory, and a dump to start a NEW one from. @internal */
export interface ThreadStart {
  readonly dataDir: string;
  readonly loadDataDir?: ArrayBuffer;
}

/** A request to the thread; `id` pairs it with its reply (0 is the start-up's). @internal */
export type ThreadRequest =
  | { readonly id: number; readonly op: 'query'; readonly sql: string; readonly params?: unknown[] }
  | { readonly id: number; readonly op: 'exec'; readonly sql: string }
  | { readonly id: number; readonly op: 'dump' }
  | { readonly id: number; readonly op: 'close' };

/** An error as fields a message carries (a structured clone keeps no custom fields). @internal */
export interface ThreadError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  /** The error's own primitive fields: SQLSTATE `code`, `severity`, `constraint`, Emscripten `errno` … */
  readonly fields: Readonly<Record<string, string | number | boolean>>;
}

/** The thread's answer to one request. @internal */
export interface ThreadReply {
  readonly id: number;
  readonly error?: ThreadError;
  readonly rows?: unknown[];
  readonly results?: Array<{ readonly command?: string }>;
  readonly tar?: ArrayBuffer;
}

/** The thread of a {@link PgliteThread} ended without being closed (it crashed or was terminated). */
export class PgliteThreadExitedError extends Error {
  override readonly name = 'PgliteThreadExitedError';
}

/** The thread's script, beside this module in the build (under Jest: the build's copy). */
function threadScript(): URL {
  const beside = new URL('./pglite-thread-worker.js', import.meta.url);
  if (existsSync(beside)) return beside;
  return new URL('../../../dist/src/event-store/postgres/pglite-thread-worker.js', import.meta.url);
}

/** An error from the thread as the same kind of error here: its name, message, stack and fields. */
function revive(error: ThreadError): Error {
  const revived = Object.assign(new Error(error.message), error.fields);
  revived.name = error.name;
  if (error.stack) revived.stack = error.stack;
  return revived;
}

interface Pending {
  resolve(reply: ThreadReply): void;
  reject(error: unknown): void;
}

/**
 * PGlite on a data directory, run on a `worker_threads` worker (docs/decisions.md "The embedded
 * database runs on a worker thread"). Calls run in arrival order; errors come back with their
 * name, message and fields, so they read as PGlite's own.
 */
export class PgliteThread implements PgliteConnection {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #ended: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: ThreadReply) => this.#settle(reply));
    worker.on('error', (error) =>
      this.#end(
        new PgliteThreadExitedError(`the embedded database's thread failed: ${error.message}`, {
          cause: error,
        }),
      ),
    );
    worker.on('exit', (code) =>
      this.#end(new PgliteThreadExitedError(`the embedded database's thread exited (code ${code})`)),
    );
  }

  /** @throws the PGlite start-up error (with its fields), or {@link PgliteThreadExitedError}. */
  static async open(options: { dataDir: string; loadDataDir?: Blob }): Promise<PgliteThread> {
    const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    const worker = new Worker(threadScript(), {
      workerData: { dataDir: options.dataDir, loadDataDir } satisfies ThreadStart,
      transferList: loadDataDir ? [loadDataDir] : [],
      // no preloads (`npm start`'s tracing hooks): nothing the thread runs is traced
      execArgv: [],
    });
    const thread = new PgliteThread(worker);
    try {
      await thread.#await(0);
      return thread;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
  }

  async query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> {
    const reply = await this.#call({ id: this.#nextId++, op: 'query', sql, params });
    return { rows: reply.rows as T[] };
  }

  async exec(script: string): Promise<ReadonlyArray<{ readonly command?: string }>> {
    return (await this.#call({ id: this.#nextId++, op: 'exec', sql: script })).results!;
  }

  async dumpDataDir(_compression: 'none'): Promise<Pick<Blob, 'arrayBuffer'>> {
    const tar = (await this.#call({ id: this.#nextId++, op: 'dump' })).tar!; // transferred, not copied
    return { arrayBuffer: async () => tar };
  }

  /** Closes PGlite in the thread (its shutdown checkpoint), then ends the thread. */
  async close(): Promise<void> {
    try {
      await this.#call({ id: this.#nextId++, op: 'close' });
    } finally {
      await this.terminate();
    }
  }

  /** Ends the thread at once, PGlite unclosed (a failed instance; the next start recovers from the WAL). */
  async terminate(): Promise<void> {
    this.#ended ??= new PgliteThreadExitedError("the embedded database's thread was ended");
    await this.#worker.terminate();
  }

  #call(request: ThreadRequest): Promise<ThreadReply> {
    if (this.#ended) return Promise.reject(this.#ended);
    const reply = this.#await(request.id);
    this.#worker.postMessage(request);
    return reply;
  }

  #await(id: number): Promise<ThreadReply> {
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  #settle(reply: ThreadReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.error) pending.reject(revive(reply.error));
    else pending.resolve(reply);
  }

  #end(error: Error): void {
    this.#ended ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#ended);
    this.#pending.clear();
  }
}
