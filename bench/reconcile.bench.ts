/**
 * Reconciliation benchmark (`npm run bench:reconcile [-- flags]`): starts the ledger on
 * PostgreSQL (a fresh database), records `--operations` confirmed operations straight through the
 * event store (claim + confirm decided by the domain, appended 32 at a time), waits for the status
 * view, then streams a generated destination export of `--rows` CSV rows to
 * `POST /v1/tenants/{tenant}/reconciliations` and polls the run to completion. Prints the upload
 * time, the comparison time and the process's peak RSS (the ledger runs in this process, so it
 * includes the ledger's own memory). The file: one record per operation except 0.5 % lost,
 * a second record for 0.1 % (second effects, recorded as DuplicateEffectDetected), and orphans
 * for the rest of the rows.
 *
 * Flags: --operations <n> (10 000) · --rows <n> (100 000) · --pg <admin URL>
 * (LEDGER_TEST_PG_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres).
 * The size: `--operations 100000 --rows 1000000`.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createAppApiKey } from '../src/auth/create-app-api-key.js';
import { DEFAULT_CONFIG, type LedgerConfig } from '../src/config/ledger-config.js';
import { createLedgerApp } from '../src/create-ledger-app.js';
import { NO_STREAM, type EventStore } from '../src/event-store/event-store.port.js';
import { EVENT_STORE } from '../src/event-store/event-store.token.js';
import {
  decide,
  evolve,
  initialState,
  operationIdFor,
  operationStreamName,
  payloadFingerprint,
  type DecisionEvent,
  type OperationKey,
} from '../src/ledger/index.js';
import { createBenchDatabase } from './postgres-bench-db.js';

const TENANT = 'bench-gmbh';
const ACTION = 'invoice.create';
const log = (line: string) => process.stderr.write(line + '\n');
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

/** Appends claim + confirm of operation `i` (decided by the domain on an empty stream). */
async function seedOne(store: EventStore, i: number, now: number): Promise<string> {
  const key: OperationKey = {
    tenant: TENANT,
    source: 'erp',
    action: ACTION,
    subject: `order:${i}`,
    revision: 1,
  };
  const operationId = operationIdFor(key);
  const payload = { order: i, total: `${i}.00` };
  const claim = decide(
    {
      type: 'ClaimOperation',
      now,
      key,
      operationId,
      payload,
      fingerprint: payloadFingerprint(payload),
      leaseMs: 30_000,
      workerId: 'bench',
    },
    initialState,
  );
  const claimed = claim.events.reduce(evolve, initialState);
  const confirm = decide(
    { type: 'ConfirmOperation', now, fencingToken: 1, destinationRef: `INV-${i}`, outputs: null },
    claimed,
  );
  const events: DecisionEvent[] = [...claim.events, ...confirm.events];
  await store.append(
    operationStreamName(key),
    events.map((e) => ({
      id: randomUUID(),
      type: e.type,
      data: e.data as never,
      metadata: { correlationId: 'bench' },
    })),
    NO_STREAM,
    { streamId: operationId },
  );
  return operationId;
}

/** The destination export as a stream of CSV lines (nothing held beyond one chunk). */
function destinationCsv(ids: readonly string[], rows: number): Readable {
  const n = ids.length;
  return Readable.from(
    (function* () {
      yield 'id,reference\n';
      let written = 0;
      let chunk = '';
      const push = (line: string) => {
        chunk += line;
        written++;
      };
      for (let i = 0; i < n && written < rows; i++) {
        if (i % 200 === 7) continue; // 0.5 % lost at the destination
        push(`INV-${i},${ids[i]}\n`);
        if (i % 1000 === 3 && written < rows) push(`INV-${i}-B,${ids[i]}\n`); // 0.1 % second effects
        if (chunk.length > 64_000) {
          yield chunk;
          chunk = '';
        }
      }
      for (let j = 0; written < rows; j++) {
        push(`MAN-${j},${randomUUID()}\n`); // orphans: made outside the ledger
        if (chunk.length > 64_000) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    })(),
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      operations: { type: 'string', default: '10000' },
      rows: { type: 'string', default: '100000' },
      pg: {
        type: 'string',
        default: process.env['LEDGER_TEST_PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
    },
  });
  const operations = Number(values.operations);
  const rows = Number(values.rows);
  const db = await createBenchDatabase(values.pg!);
  const config: LedgerConfig = {
    ...DEFAULT_CONFIG,
    store: 'postgres',
    databaseUrl: db.connectionString,
    dataDir: 'memory://',
    port: 0,
    rateLimitPerKey: 0,
  };
  const app = await createLedgerApp(config, { logger: ['error', 'warn'] });
  try {
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const key = await createAppApiKey(app, {
      tenant: TENANT,
      roles: ['operator', 'auditor'],
      name: 'bench-recon',
    });
    const auth = { authorization: `Bearer ${key.token}` };
    const store = app.get<EventStore>(EVENT_STORE);

    let t = performance.now();
    const ids: string[] = new Array(operations);
    for (let next = 0; next < operations;) {
      const batch = Array.from({ length: Math.min(32, operations - next) }, (_, k) => next + k);
      const seeded = await Promise.all(batch.map((i) => seedOne(store, i, Date.now())));
      batch.forEach((i, k) => (ids[i] = seeded[k]!));
      next += batch.length;
    }
    log(`seeded ${operations} confirmed operations in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    for (;;) {
      const view = await fetch(`${url}/v1/tenants/${TENANT}/reconciliation?limit=1`, { headers: auth });
      const body = (await view.json()) as { lag: { events: number } };
      if (body.lag.events === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    log(`status view caught up in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const rssBefore = process.resourceUsage().maxRSS;

    t = performance.now();
    const res = await fetch(`${url}/v1/tenants/${TENANT}/reconciliations?action=${ACTION}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv' },
      body: Readable.toWeb(destinationCsv(ids, rows)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const started = (await res.json()) as { id: string; status: string };
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(started)}`);
    const uploadS = (performance.now() - t) / 1000;
    t = performance.now();
    let run: {
      status: string;
      totals: { byCategory: Record<string, number>; outcomes: Record<string, number> };
      error: string | null;
    };
    for (;;) {
      const r = await fetch(`${url}/v1/tenants/${TENANT}/reconciliations/${started.id}`, { headers: auth });
      run = (await r.json()) as typeof run;
      if (run.status === 'completed' || run.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const compareS = (performance.now() - t) / 1000;
    if (run.status !== 'completed') throw new Error(`run failed: ${run.error}`);
    const peak = process.resourceUsage().maxRSS;
    log(`reconciliation of ${rows} destination rows vs ${operations} operations (PostgreSQL):`);
    log(`  upload (streamed into SQL, 202)  ${uploadS.toFixed(1)} s  (${Math.round(rows / uploadS)} rows/s)`);
    log(`  comparison (background run)      ${compareS.toFixed(1)} s`);
    log(`  total                            ${(uploadS + compareS).toFixed(1)} s`);
    log(`  peak RSS  ${mib(peak)} (before the upload: ${mib(rssBefore)})`);
    log(`  categories ${JSON.stringify(run.totals.byCategory)}`);
    log(`  writes     ${JSON.stringify(run.totals.outcomes)}`);
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
