// Shutdown under load (docs/production.md "Stopping"; the failure it guards against: one SIGTERM
// under load took minutes and seemed to keep serving): the embedded server gets SIGTERM during a 16-client claim/confirm
// load with a live SSE subscription open, LEDGER_SHUTDOWN_ROUNDS times (default 10), restarted on
// the same data directory after each. Each stop must end with exit code 0 — the server exits 1
// when its own bound (LEDGER_SHUTDOWN_GRACE_MS) runs out — and end the subscription with its
// `shutdown` event. After the stop begins, requests get an answer (in-flight ones), 503
// `shutting-down` (new ones on kept-alive connections) or a refused connection; afterwards every
// acknowledged claim and confirm is in its stream once and the read model equals the streams.
import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { letItWork, startClaimConfirmLoad, type RunningLoad } from './claim-confirm-load.js';
import {
  awaitCatchUp,
  expectHonestAnswers,
  readModelProblems,
  streamProblems,
  type RunSql,
} from './ledger-invariants.js';
import { issueKey, newAdminToken, spawnServer, stopGently, type ServerProcess } from './spawned-server.js';

const ROUNDS = Number(process.env['LEDGER_SHUTDOWN_ROUNDS'] ?? 10);
const TENANT = 'acme';
const GRACE_MS = 10_000;

/** Opens a live subscription and resolves once it is streaming; `ended` resolves with all it received. */
async function subscribe(url: string, token: string): Promise<{ ended: Promise<string> }> {
  const res = await fetch(`${url}/v1/tenants/${TENANT}/operations/changes`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  if (res.status !== 200 || !res.body) throw new Error(`subscription answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const first = await reader.read();
  text += decoder.decode(first.value ?? new Uint8Array(), { stream: true });
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      return text; // the connection was cut instead of ended
    }
  })();
  return { ended };
}

describe(`SIGTERM during a 16-client load, ${ROUNDS} times (embedded server)`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-shutdown-'));
  const adminToken = newAdminToken();
  const env = {
    LEDGER_STORE: 'pglite',
    LEDGER_DATA_DIR: dataDir,
    LEDGER_ADMIN_TOKEN: adminToken,
    LEDGER_SHUTDOWN_GRACE_MS: String(GRACE_MS),
  };
  let server: ServerProcess | undefined;
  let load: RunningLoad | undefined;

  afterAll(async () => {
    await load?.stop();
    if (server) await stopGently(server);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(
    'exits 0 within its bound every time, ends subscriptions, loses nothing acknowledged',
    async () => {
      server = await spawnServer(env);
      const worker = await issueKey(server.url, adminToken, TENANT, ['worker']);
      const auditor = await issueKey(server.url, adminToken, '*', ['auditor']);
      let round = 0;
      let phase = 'serving';
      load = startClaimConfirmLoad({
        url: () => server!.url,
        token: worker,
        tenant: TENANT,
        clients: 16,
        phase: () => `round-${round}-${phase}`,
        retryPauseMs: 250, // refused connections while the server restarts: retried, not hammered
      });
      const stops: { round: number; ms: number; exit: string | number | null }[] = [];
      for (round = 1; round <= ROUNDS; round++) {
        await letItWork(load.answers, 20);
        const subscription = await subscribe(server.url, auditor);
        phase = 'stopping';
        const started = Date.now();
        // The test's own bound: SIGKILL after twice the server's (the assertion below then fails).
        const exit = await stopGently(server, 2 * GRACE_MS);
        stops.push({ round, ms: Date.now() - started, exit });
        expect({ round, exit }).toEqual({ round, exit: 0 });
        expect(await subscription.ended).toContain('event: shutdown');
        server = await spawnServer(env);
        phase = 'serving';
      }
      await letItWork(load.answers, 30);
      const answers = await load.stop();
      load = undefined;
      expectHonestAnswers(answers);
      const stopping = answers.filter((a) => a.phase.endsWith('-stopping'));
      const shuttingDown = stopping.filter((a) => a.code === 'shutting-down').length;
      const refused = stopping.filter((a) => a.status === 'network-error').length;
      // While stopping, a 503 is `shutting-down` (the store was not the matter).
      expect(stopping.filter((a) => a.status === 503 && a.code !== 'shutting-down')).toEqual([]);
      await awaitCatchUp(server.url, auditor);
      expect(await readModelProblems(server.url, auditor, TENANT, answers)).toEqual([]);
      expect(await stopGently(server)).toBe(0);
      server = undefined;

      const db = new PGlite(dataDir);
      try {
        const sql: RunSql = async <T>(text: string) => (await db.query<T>(text)).rows;
        expect(await streamProblems(sql, TENANT, answers)).toEqual([]);
      } finally {
        await db.close();
      }
      const acked = answers.filter((a) => a.kind === 'claim' && a.status === 201).length;
      expect(acked).toBeGreaterThan(ROUNDS * 10);
      console.log(
        `shutdown under load: ${ROUNDS} SIGTERMs, stop took ${stops.map((s) => s.ms).join(', ')} ms; ` +
          `${answers.length} requests, ${acked} claims acknowledged; while stopping ` +
          `${stopping.length} requests: ${shuttingDown} × 503 shutting-down, ${refused} refused connections`,
      );
    },
    ROUNDS * 60_000 + 60_000,
  );
});
