import type {
  Evidence,
  LedgerClient,
  LookupResult,
  RecoveryReport,
  UnknownOperation,
} from '@operation-ledger/client';
import { keyText, type Intent } from '../intent.js';
import type { TicketClient } from '../ticket-client.js';
import { CREATE_TICKET_STEP } from '../worker.js';

/** What the recovery worker needs. */
export interface EvidenceRecoveryOptions {
  readonly ledger: LedgerClient;
  readonly tickets: TicketClient;
  /** Tenants whose review queues it watches. */
  readonly tenants: readonly string[];
  /** The intents by {@link keyText} of their key: how an entry's ticket is looked up. */
  readonly intents: ReadonlyMap<string, Intent>;
  /** Puts the intent back on the work queue after a `not_found` released its operation. */
  readonly requeue: (intent: Intent, operationId: string) => void;
  /** Pause between passes over the review queues, ms. */
  readonly intervalMs: number;
}

/** One evidence submission the ledger accepted. */
export interface EvidenceRecord {
  readonly operationId: string;
  readonly verdict: Evidence['verdict'];
  readonly destinationRef: string | null;
}

/** What the recovery worker did. */
export interface EvidenceRecoveryStats {
  readonly passes: number;
  readonly found: number;
  readonly notFound: number;
  readonly inconclusive: number;
  /** Entries already settled on their stream: the review queue (a projection) lagged it. */
  readonly alreadySettled: number;
  readonly records: readonly EvidenceRecord[];
  /** Unexpected answers, as text. */
  readonly errors: readonly string[];
}

/**
 * The recovery worker ("inspect, don't retry") on the SDK's `recover` loop, one per watched
 * tenant: for every `unknown_outcome` entry it looks the ticket up at the ticket system by its
 * external reference — exactly one ticket → `found` with its id (Confirmed); none → `not_found`
 * (Released) and the intent is re-queued so a worker claims it again (the same provider
 * idempotency key goes to the ticket system); several → `inconclusive` (an operator's case).
 */
export class EvidenceRecovery {
  private readonly records: EvidenceRecord[] = [];
  private readonly stop$ = new AbortController();
  private running: Promise<RecoveryReport[]> | null = null;

  constructor(private readonly options: EvidenceRecoveryOptions) {}

  /** Starts the loops in the background. */
  start(): void {
    const loop = { intervalMs: this.options.intervalMs, signal: this.stop$.signal };
    this.running ??= Promise.all(
      this.options.tenants.map((tenant) =>
        this.options.ledger.recover({
          tenant,
          loop,
          lookup: (op) => this.lookup(op),
          onEvidence: (op, evidence) => {
            this.records.push({
              operationId: op.operationId,
              verdict: evidence.verdict,
              destinationRef: evidence.destinationRef ?? null,
            });
          },
          onReleased: (op) =>
            this.options.requeue(this.options.intents.get(keyText(op.key))!, op.operationId),
        }),
      ),
    );
  }

  /** Stops after the current pass; resolves with the counters. */
  async stop(): Promise<EvidenceRecoveryStats> {
    this.stop$.abort();
    const reports = (await this.running) ?? [];
    const count = (verdict: Evidence['verdict']) => this.records.filter((r) => r.verdict === verdict).length;
    return {
      passes: Math.max(0, ...reports.map((r) => r.passes)),
      found: count('found'),
      notFound: count('not_found'),
      inconclusive: count('inconclusive'),
      alreadySettled: reports.reduce((n, r) => n + r.alreadySettled, 0),
      records: [...this.records],
      errors: reports.flatMap((r) =>
        r.errors.map(
          (e) => `evidence ${e.operationId}: ${e.error instanceof Error ? e.error.message : String(e.error)}`,
        ),
      ),
    };
  }

  private async lookup(op: UnknownOperation): Promise<LookupResult | null> {
    const intent = this.options.intents.get(keyText(op.key));
    if (!intent) return null; // not this run's to decide
    const { externalRef } = intent.ticket;
    const found = await this.options.tickets.findByExternalRef(externalRef);
    const providerKey = op.providerKey(CREATE_TICKET_STEP);
    const ticket = found.length === 1 ? found[0]! : null;
    const evidence = {
      checkedFields: {
        externalRef,
        ticketsWithRef: found.length,
        idempotencyKey: providerKey,
        idempotencyKeyMatches: ticket ? ticket.idempotencyKey === providerKey : null,
      },
      note: `GET /tickets?externalRef= at the ticket system: ${found.map((t) => t.id).join(', ') || 'no ticket'}`,
    };
    if (found.length === 0) return { notFound: true, ...evidence };
    return ticket ? { found: ticket.id, ...evidence } : { inconclusive: true, ...evidence };
  }
}
