import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashedUnit } from './seeded-random.js';

/** A ticket as the simulated ticket system stores it: one record per real effect. */
export interface Ticket {
  readonly id: string;
  readonly externalRef: string;
  readonly title: string;
  readonly body: string;
  readonly createdAt: string;
  /** The `Idempotency-Key` it was created with, if any. */
  readonly idempotencyKey: string | null;
}

/** Fault injection of `POST /tickets`, decided per request from the seed (reproducible). */
export interface TicketSystemOptions {
  readonly seed: number;
  /**
   * Probability that a create SAVES the ticket and then answers only after `faultDelayMs`: the
   * caller, whose timeout is shorter, cannot know the ticket exists (scenario C9, docs/development.md "Tests").
   */
  readonly slowAfterSaveRate: number;
  /** Probability that a create is lost: nothing saved, a 503 only after `faultDelayMs`. */
  readonly lostRate?: number;
  /** How long a faulty answer is held back, ms; set it above the worker's client timeout. */
  readonly faultDelayMs: number;
}

/** What happened at the destination, for the summary. */
export interface TicketSystemStats {
  /** Tickets stored: the number of real effects. */
  readonly records: number;
  /** `POST /tickets` requests received. */
  readonly createRequests: number;
  /** Creates answered with an existing ticket because the `Idempotency-Key` was known. */
  readonly idempotentReplays: number;
  /** Creates that saved the ticket and then answered too late. */
  readonly savedThenSlow: number;
  /** Creates that were lost (nothing saved). */
  readonly lost: number;
}

/** A running simulated ticket system. */
export interface TicketSystem {
  /** Base URL, e.g. `http://127.0.0.1:39001`. */
  readonly url: string;
  /** Every stored ticket, in creation order. */
  tickets(): readonly Ticket[];
  stats(): TicketSystemStats;
  /** Stops the server, dropping held-back answers. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;

/**
 * Starts an in-process ticket system on 127.0.0.1 with an ephemeral port (node:http):
 * - `POST /tickets {externalRef, title, body}` creates a ticket (201). An `Idempotency-Key` header
 *   seen before answers the same ticket (200, `Idempotent-Replayed: true`) and stores nothing; the
 *   same key with a different body is refused (422), as payment-style APIs do. Without the header
 *   every POST is a new ticket — which is what makes duplicates visible.
 * - `GET /tickets?externalRef=…` looks tickets up by external reference; `GET /tickets` lists all;
 *   `GET /tickets/{id}` reads one.
 * - `GET /tickets/export?format=csv|ndjson` exports every ticket (columns `id`, `externalRef`,
 *   `idempotencyKey`, `title`, `createdAt`) the way a destination's export feeds a reconciliation
 *   (docs/reconciliation.md); `DELETE /tickets/{id}` removes one (a ticket the destination lost).
 * Faults (see {@link TicketSystemOptions}) are decided by hashing the seed with the request's
 * idempotency key and how many times that key was sent, so concurrency does not change them.
 */
export async function startTicketSystem(options: TicketSystemOptions): Promise<TicketSystem> {
  const tickets: Ticket[] = [];
  const byIdempotencyKey = new Map<string, { ticket: Ticket; requestText: string }>();
  const sendsPerLabel = new Map<string, number>();
  const heldBack = new Set<NodeJS.Timeout>();
  const stats = { createRequests: 0, idempotentReplays: 0, savedThenSlow: 0, lost: 0 };

  /** Answers after `faultDelayMs`, unless the client is gone by then. */
  const holdBack = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const timer = setTimeout(() => {
      heldBack.delete(timer);
      if (!res.destroyed) send(res, status, body, headers);
    }, options.faultDelayMs);
    heldBack.add(timer);
  };

  const faultFor = (idempotencyKey: string | null, externalRef: string): 'none' | 'slow' | 'lost' => {
    const label = idempotencyKey === null ? `ref:${externalRef}` : `key:${idempotencyKey}`;
    const n = (sendsPerLabel.get(label) ?? 0) + 1;
    sendsPerLabel.set(label, n);
    const u = hashedUnit(options.seed, `${label}#${n}`);
    if (u < options.slowAfterSaveRate) return 'slow';
    if (u < options.slowAfterSaveRate + (options.lostRate ?? 0)) return 'lost';
    return 'none';
  };

  const create = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    stats.createRequests++;
    const draft = parseDraft(raw);
    if (typeof draft === 'string') return send(res, 400, { error: draft });
    const header = req.headers['idempotency-key'];
    const idempotencyKey = typeof header === 'string' && header !== '' ? header : null;
    const requestText = JSON.stringify([draft.externalRef, draft.title, draft.body]);
    const fault = faultFor(idempotencyKey, draft.externalRef);
    if (fault === 'lost') {
      stats.lost++;
      return holdBack(res, 503, { error: 'upstream unavailable' });
    }
    const known = idempotencyKey === null ? undefined : byIdempotencyKey.get(idempotencyKey);
    let status = 201;
    let ticket: Ticket;
    if (known) {
      if (known.requestText !== requestText) {
        return send(res, 422, { error: 'Idempotency-Key reused with a different request' });
      }
      stats.idempotentReplays++;
      status = 200;
      ticket = known.ticket;
    } else {
      ticket = {
        id: `TCK-${String(tickets.length + 1).padStart(6, '0')}`,
        ...draft,
        createdAt: new Date().toISOString(),
        idempotencyKey,
      };
      tickets.push(ticket); // saved on receipt, before any answer
      if (idempotencyKey !== null) byIdempotencyKey.set(idempotencyKey, { ticket, requestText });
    }
    const headers: Record<string, string> = status === 200 ? { 'idempotent-replayed': 'true' } : {};
    if (fault === 'slow') {
      stats.savedThenSlow++;
      return holdBack(res, status, ticket, headers);
    }
    send(res, status, ticket, headers);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://ticket-system');
    readBody(req)
      .then((raw) => {
        if (raw === null) return send(res, 413, { error: 'body too large' });
        if (req.method === 'POST' && url.pathname === '/tickets') return create(req, res, raw);
        if (req.method === 'GET' && url.pathname === '/tickets') {
          const ref = url.searchParams.get('externalRef');
          const found = ref === null ? tickets : tickets.filter((t) => t.externalRef === ref);
          return send(res, 200, { tickets: found, count: found.length });
        }
        if (req.method === 'GET' && url.pathname === '/tickets/export') {
          return exportTickets(res, tickets, url.searchParams.get('format') ?? 'csv');
        }
        const one = /^\/tickets\/([^/]+)$/.exec(url.pathname);
        if (req.method === 'DELETE' && one) {
          const at = tickets.findIndex((t) => t.id === decodeURIComponent(one[1]!));
          if (at < 0) return send(res, 404, { error: 'no such ticket' });
          tickets.splice(at, 1);
          res.writeHead(204).end();
          return;
        }
        if (req.method === 'GET' && one) {
          const ticket = tickets.find((t) => t.id === decodeURIComponent(one[1]!));
          return ticket ? send(res, 200, ticket) : send(res, 404, { error: 'no such ticket' });
        }
        send(res, 404, { error: `no route ${req.method} ${url.pathname}` });
      })
      .catch((err: unknown) => send(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    tickets: () => [...tickets],
    stats: () => ({ records: tickets.length, ...stats }),
    close: async () => {
      for (const timer of heldBack) clearTimeout(timer);
      heldBack.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Columns of the ticket export, in order. */
export const TICKET_EXPORT_COLUMNS = ['id', 'externalRef', 'idempotencyKey', 'title', 'createdAt'] as const;

/** One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF. */
function csvField(value: string | null): string {
  const text = value ?? '';
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Answers every ticket as CSV (header line first) or NDJSON (one object per line). */
function exportTickets(res: ServerResponse, tickets: readonly Ticket[], format: string): void {
  if (format !== 'csv' && format !== 'ndjson')
    return send(res, 400, { error: 'format must be csv or ndjson' });
  const rows = tickets.map((t) => TICKET_EXPORT_COLUMNS.map((c) => t[c]));
  const text =
    format === 'csv'
      ? [TICKET_EXPORT_COLUMNS.join(','), ...rows.map((r) => r.map(csvField).join(','))].join('\r\n') + '\r\n'
      : rows
          .map((r) => JSON.stringify(Object.fromEntries(TICKET_EXPORT_COLUMNS.map((c, i) => [c, r[i]]))))
          .join('\n') + (rows.length ? '\n' : '');
  res.writeHead(200, {
    'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function parseDraft(raw: string): { externalRef: string; title: string; body: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return 'body must be JSON';
  }
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof v.externalRef !== 'string' || v.externalRef === '') return 'externalRef is required';
  if (typeof v.title !== 'string' || v.title === '') return 'title is required';
  if (v.body !== undefined && typeof v.body !== 'string') return 'body must be a string';
  return { externalRef: v.externalRef, title: v.title, body: (v.body as string | undefined) ?? '' };
}

/** Reads the request body as text; null when it exceeds {@link MAX_BODY_BYTES}. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
