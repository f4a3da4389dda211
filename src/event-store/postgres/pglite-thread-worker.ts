// The thread side of PgliteThread (pglite-thread.ts, which starts this file as a worker thread):
// opens PGlite on the data directory it is given and runs each request it receives, in order,
// answering with the result or the error's fields. Kept free of the application's modules: the
// server bundle has it as its own entry point, next to main.js.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { ThreadError, ThreadReply, ThreadRequest, ThreadStart } from './pglite-thread.js';
import { pgliteStartParams } from './pglite-start-params.js';

const port = parentPort!;
const start = workerData as ThreadStart;

/** `error` as plain fields a message can carry: name, message, stack and its own primitive fields (code, severity, constraint, errno …). */
function fieldsOf(error: unknown): ThreadError {
  if (typeof error !== 'object' || error === null)
    return { name: 'Error', message: String(error), fields: {} };
  const { name, message, stack } = error as { name?: unknown; message?: unknown; stack?: unknown };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  }
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(error),
    stack: typeof stack === 'string' ? stack : undefined,
    fields,
  };
}

const db = new PGlite({
  dataDir: start.dataDir,
  loadDataDir: start.loadDataDir ? new Blob([start.loadDataDir]) : undefined,
  startParams: pgliteStartParams(),
});

async function run(request: ThreadRequest): Promise<ThreadReply> {
  const { id } = request;
  switch (request.op) {
    case 'query':
      return { id, rows: (await db.query(request.sql, request.params)).rows };
    case 'exec':
      return { id, results: (await db.exec(request.sql)).map((r) => ({ command: r.command })) };
    case 'dump':
      return { id, tar: await (await db.dumpDataDir('none')).arrayBuffer() };
    case 'close':
      await db.close();
      return { id };
  }
}

db.waitReady.then(
  () => port.postMessage({ id: 0 } satisfies ThreadReply),
  (error: unknown) => port.postMessage({ id: 0, error: fieldsOf(error) } satisfies ThreadReply),
);

port.on('message', (request: ThreadRequest) => {
  run(request).then(
    (reply) => port.postMessage(reply, reply.tar ? [reply.tar] : []),
    (error: unknown) => port.postMessage({ id: request.id, error: fieldsOf(error) } satisfies ThreadReply),
  );
});
