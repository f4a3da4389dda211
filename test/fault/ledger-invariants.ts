import { acknowledged, loadStream, type LoadAnswer } from './claim-confirm-load.js';

/**
 * What every fault test asserts about the answers themselves: none hung, only 200/201/409/503
 * (network errors aside: a killed or stopping server), every 503 with a Retry-After ≥ 1 s.
 */
export function expectHonestAnswers(answers: readonly LoadAnswer[]): void {
  expect(answers.filter((a) => a.status === 'hang')).toEqual([]);
  expect(
    answers.filter((a) => typeof a.status === 'number' && ![200, 201, 409, 503].includes(a.status)),
  ).toEqual([]);
  expect(answers.filter((a) => a.status === 503 && !(Number(a.retryAfter) >= 1))).toEqual([]);
}

/**
 * Answers that took longer than `ms` (sent → answered, as the client measured), as
 * `kind subject status after N ms` lines; empty when every answer came in time.
 */
export function lateAnswers(answers: readonly LoadAnswer[], ms: number): string[] {
  return answers
    .filter((a) => a.ms > ms)
    .map((a) => `${a.kind} ${a.subject} ${a.status} (${a.phase}) after ${a.ms} ms`);
}

/** Runs SQL on the ledger's database (PostgreSQL or a PGlite data dir) and returns the rows. */
export type RunSql = <T>(sql: string) => Promise<T[]>;

interface StreamCount {
  stream_name: string;
  claimed: number;
  confirmed: number;
}

/**
 * What the breaker checked, from the events table: every acknowledged claim (201) has exactly one
 * `OperationClaimed` in its first-attempt stream, every acknowledged confirm (200) exactly one
 * `OperationConfirmed`, no stream of the load holds two claims, no key got a second attempt (leases
 * are 1 h and nothing is released), and no key was acknowledged as acquired twice.
 * @returns the problems found, empty when all hold.
 */
export async function streamProblems(
  sql: RunSql,
  tenant: string,
  answers: readonly LoadAnswer[],
): Promise<string[]> {
  const rows = await sql<StreamCount>(
    `select stream_name,
            count(*) filter (where type = 'OperationClaimed')::int as claimed,
            count(*) filter (where type = 'OperationConfirmed')::int as confirmed
       from ledger_events where stream_name like 'operation-${tenant}/fault/%' group by stream_name`,
  );
  const byStream = new Map(rows.map((r) => [r.stream_name, r]));
  const problems: string[] = [];
  const { claims, confirms } = acknowledged(answers);
  const seen = new Set<string>();
  for (const subject of claims) {
    if (seen.has(subject)) problems.push(`${subject}: acknowledged as acquired twice`);
    seen.add(subject);
    const claimed = byStream.get(loadStream(tenant, subject))?.claimed ?? 0;
    if (claimed !== 1) problems.push(`${subject}: acknowledged claim, ${claimed} OperationClaimed`);
  }
  for (const subject of confirms) {
    const confirmed = byStream.get(loadStream(tenant, subject))?.confirmed ?? 0;
    if (confirmed !== 1) problems.push(`${subject}: acknowledged confirm, ${confirmed} OperationConfirmed`);
  }
  for (const r of rows) {
    if (r.claimed > 1) problems.push(`${r.stream_name}: ${r.claimed} OperationClaimed`);
    if (!r.stream_name.endsWith('@1')) problems.push(`${r.stream_name}: a second attempt`);
  }
  return problems;
}

interface Json {
  status: number;
  body: any;
}

async function getJson(url: string, token: string): Promise<Json> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Waits until the `operations` read model has no lag (≤ `timeoutMs`). @throws when it stays behind. */
export async function awaitCatchUp(baseUrl: string, token: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await getJson(`${baseUrl}/v1/projections/operations`, token).catch(() => ({
      status: 0,
      body: null,
    }));
    if (status === 200 && body?.lag?.events === 0 && body?.state === 'live') return;
    if (Date.now() > deadline)
      throw new Error(`operations read model not caught up: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Read models == streams: every row of `GET /v1/tenants/{tenant}/operations?source=fault` has the
 * state, attempt and destination reference of `GET /v1/operations/{id}` (folded from its stream),
 * and every acknowledged claim has a row. Call after {@link awaitCatchUp}.
 * @returns the problems found, empty when all hold.
 */
export async function readModelProblems(
  baseUrl: string,
  token: string,
  tenant: string,
  answers: readonly LoadAnswer[],
): Promise<string[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  // Small pages: even a slow run's walk spans pages, so rows changing during it are covered too.
  do {
    const page = await getJson(
      `${baseUrl}/v1/tenants/${tenant}/operations?source=fault&limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      token,
    );
    if (page.status !== 200) return [`operations list answered ${page.status}`];
    rows.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  // A row that changed during the walk comes twice (docs/api.md "Read models"): keep the newer copy.
  const latest = new Map<string, any>();
  for (const row of rows) {
    const seen = latest.get(row.operationId);
    if (!seen || BigInt(row.position) > BigInt(seen.position)) latest.set(row.operationId, row);
  }
  rows.splice(0, rows.length, ...latest.values());
  const problems: string[] = [];
  const listed = new Set(rows.map((r) => r.key.subject as string));
  for (const subject of acknowledged(answers).claims) {
    if (!listed.has(subject)) problems.push(`${subject}: acknowledged, no read-model row`);
  }
  for (let i = 0; i < rows.length; i += 16) {
    await Promise.all(
      rows.slice(i, i + 16).map(async (row) => {
        const { status, body } = await getJson(`${baseUrl}/v1/operations/${row.operationId}`, token);
        if (status !== 200) return problems.push(`${row.key.subject}: GET answered ${status}`);
        const view = { state: row.state, attempt: row.attempt, ref: row.destinationRef ?? null };
        const folded = { state: body.state, attempt: body.attempt, ref: body.destinationRef ?? null };
        if (JSON.stringify(view) !== JSON.stringify(folded)) {
          problems.push(
            `${row.key.subject}: row ${JSON.stringify(view)} != stream ${JSON.stringify(folded)}`,
          );
        }
        return undefined;
      }),
    );
  }
  return problems;
}
