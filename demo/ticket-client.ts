import { RequestTimeoutError, requestJson } from './http-json.js';
import type { TicketDraft } from './intent.js';
import type { Ticket } from './ticket-system.js';

/** Result of one create call, as the worker sees it. */
export type CreateTicketResult =
  | { readonly kind: 'created'; readonly ticket: Ticket; readonly replayed: boolean }
  /** No answer in time, a dropped connection, or a 5xx: the ticket may or may not exist. */
  | { readonly kind: 'uncertain'; readonly reason: string }
  /** A 4xx: the ticket system refused the request; nothing was created. */
  | { readonly kind: 'rejected'; readonly status: number; readonly reason: string };

/** Client of the simulated ticket system (see ticket-system.ts), over HTTP only. */
export class TicketClient {
  private readonly base: string;

  constructor(url: string) {
    this.base = url.replace(/\/+$/, '');
  }

  /**
   * `POST /tickets` with an `Idempotency-Key` and a client timeout. Never throws for what the
   * destination does: a timeout or a server error is `uncertain`, because the ticket may have been
   * saved before the answer was lost.
   */
  async create(draft: TicketDraft, idempotencyKey: string, timeoutMs: number): Promise<CreateTicketResult> {
    try {
      const res = await requestJson('POST', `${this.base}/tickets`, {
        body: draft,
        headers: { 'idempotency-key': idempotencyKey },
        timeoutMs,
      });
      if (res.status === 200 || res.status === 201) {
        return { kind: 'created', ticket: res.body as Ticket, replayed: res.status === 200 };
      }
      if (res.status >= 400 && res.status < 500) {
        return { kind: 'rejected', status: res.status, reason: JSON.stringify(res.body) };
      }
      return { kind: 'uncertain', reason: `ticket system answered ${res.status}` };
    } catch (err) {
      if (err instanceof RequestTimeoutError) {
        return { kind: 'uncertain', reason: `ticket system did not answer within ${timeoutMs} ms` };
      }
      return { kind: 'uncertain', reason: `ticket system call failed: ${(err as Error).message}` };
    }
  }

  /** `GET /tickets?externalRef=…`: the tickets recorded for one external reference. */
  async findByExternalRef(externalRef: string): Promise<readonly Ticket[]> {
    const res = await requestJson(
      'GET',
      `${this.base}/tickets?externalRef=${encodeURIComponent(externalRef)}`,
    );
    if (res.status !== 200) throw new Error(`ticket lookup answered ${res.status}`);
    return (res.body as { tickets: Ticket[] }).tickets;
  }

  /** `GET /tickets`: every ticket at the destination (the records the demo counts). */
  async list(): Promise<readonly Ticket[]> {
    const res = await requestJson('GET', `${this.base}/tickets`);
    if (res.status !== 200) throw new Error(`ticket listing answered ${res.status}`);
    return (res.body as { tickets: Ticket[] }).tickets;
  }
}
