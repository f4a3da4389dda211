/** One answer the load saw. `status` is `network-error` for a refused/reset connection, `hang` past the timeout. */
export interface LoadAnswer {
  readonly kind: 'claim' | 'confirm';
  readonly subject: string;
  readonly phase: string;
  readonly status: number | 'network-error' | 'hang';
  readonly code?: string;
  readonly retryAfter: string | null;
  readonly operationId?: string;
  /** Time from sending the request to its answer (or failure), ms. */
  readonly ms: number;
  /** When it was sent (`Date.now()`). */
  readonly sentAt: number;
}

/** Options of {@link startClaimConfirmLoad}. */
export interface LoadOptions {
  /** Where the ledger listens, read before every request (a restarted server may move). */
  readonly url: () => string;
  readonly token: string;
  readonly tenant: string;
  readonly clients: number;
  /** Label stored with each answer (the test's phase when the request was sent). */
  readonly phase: () => string;
  /** A request without an answer after this long counts as `hang` (default 20 000 ms). */
  readonly hangMs?: number;
  /** Pause after a 503 or a network error before retrying the same request (default 50 ms). */
  readonly retryPauseMs?: number;
  /** Subject prefix, so rounds of one test never collide (default `L`). */
  readonly prefix?: string;
}

/** A running load; `stop()` ends every client loop and returns all answers. */
export interface RunningLoad {
  readonly answers: LoadAnswer[];
  stop(): Promise<LoadAnswer[]>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The operation key of `subject` under the load's fixed source and action. */
export const loadKey = (tenant: string, subject: string) => ({
  tenant,
  source: 'fault',
  action: 'invoice.create',
  subject,
});

/** Decision stream of the first attempt of `subject`'s operation. */
export const loadStream = (tenant: string, subject: string) =>
  `operation-${tenant}/fault/invoice.create/${subject}@1`;

/**
 * Mixed worker load for fault tests: each client claims a new key (lease 1 h), then confirms it
 * with `REF-<subject>`. After a 503, a network error or no answer within `hangMs` the SAME request
 * is retried (as a worker
 * honouring Retry-After would, sped up), so an answer lost in a crash is retried: a claim that
 * committed answers 409, never a second acquisition. Every 7th claim repeats an acknowledged key.
 */
export function startClaimConfirmLoad(o: LoadOptions): RunningLoad {
  const answers: LoadAnswer[] = [];
  let running = true;
  let seq = 0;
  const send = async (kind: LoadAnswer['kind'], subject: string, path: string, body: unknown) => {
    const phase = o.phase();
    const sent = performance.now();
    const sentAt = Date.now();
    const ms = () => Math.round(performance.now() - sent);
    try {
      const res = await fetch(o.url() + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(o.hangMs ?? 20_000),
      });
      const parsed = (await res.json().catch(() => ({}))) as {
        code?: string;
        operationId?: string;
        fencingToken?: number;
      };
      const answer: LoadAnswer = {
        kind,
        subject,
        phase,
        status: res.status,
        code: parsed.code,
        retryAfter: res.headers.get('retry-after'),
        operationId: parsed.operationId,
        ms: ms(),
        sentAt,
      };
      answers.push(answer);
      return { answer, fencingToken: parsed.fencingToken };
    } catch (error) {
      const hang = error instanceof Error && error.name === 'TimeoutError';
      const answer: LoadAnswer = {
        kind,
        subject,
        phase,
        status: hang ? 'hang' : 'network-error',
        retryAfter: null,
        ms: ms(),
        sentAt,
      };
      answers.push(answer);
      return { answer, fencingToken: undefined };
    }
  };
  const retrying = (s: LoadAnswer['status']) => s === 503 || s === 'network-error' || s === 'hang';
  const client = async (c: number) => {
    while (running) {
      const acked = answers.filter((a) => a.kind === 'claim' && a.status === 201);
      const n = seq++;
      const subject =
        n % 7 === 6 && acked.length > 0 ? acked[n % acked.length]!.subject : `${o.prefix ?? 'L'}-${c}-${n}`;
      const claimBody = { key: loadKey(o.tenant, subject), payload: { subject }, leaseMs: 3_600_000 };
      let claim = await send('claim', subject, '/v1/claims', claimBody);
      while (running && retrying(claim.answer.status)) {
        await sleep(o.retryPauseMs ?? 50);
        claim = await send('claim', subject, '/v1/claims', claimBody);
      }
      if (claim.answer.status !== 201 || !claim.answer.operationId) continue;
      const confirmPath = `/v1/operations/${claim.answer.operationId}/confirm`;
      const confirmBody = { fencingToken: claim.fencingToken, destinationRef: `REF-${subject}` };
      let confirm = await send('confirm', subject, confirmPath, confirmBody);
      while (running && retrying(confirm.answer.status)) {
        await sleep(o.retryPauseMs ?? 50);
        confirm = await send('confirm', subject, confirmPath, confirmBody);
      }
    }
  };
  const loops = Promise.all(Array.from({ length: o.clients }, (_, c) => client(c)));
  return {
    answers,
    async stop() {
      running = false;
      await loops;
      return answers;
    },
  };
}

/** Lets the load run until it got `n` more acknowledgements than now (or 5 s), plus a random bit. */
export async function letItWork(answers: readonly LoadAnswer[], n: number): Promise<void> {
  const ok = (a: LoadAnswer) => a.status === 201 || a.status === 200;
  const target = answers.filter(ok).length + n;
  const until = Date.now() + 5000;
  while (answers.filter(ok).length < target && Date.now() < until) await sleep(25);
  await sleep(Math.floor(Math.random() * 400));
}

/** Subjects whose claim (201) and confirm (200) the load saw acknowledged. */
export function acknowledged(answers: readonly LoadAnswer[]): { claims: string[]; confirms: string[] } {
  const of = (kind: LoadAnswer['kind'], status: number) =>
    answers.filter((a) => a.kind === kind && a.status === status).map((a) => a.subject);
  return { claims: of('claim', 201), confirms: [...new Set(of('confirm', 200))] };
}
