import { setTimeout as sleep } from 'node:timers/promises';
import { keyText, type Intent } from '../intent.js';
import type { LedgerEndpoint } from '../ledger-client.js';
import type { TicketClient } from '../ticket-client.js';
import { CREATE_TICKET_STEP } from '../worker.js';
import { submitEvidence, unknownEntries, type Evidence, type UnknownEntry } from './recovery-api.js';

/** What the recovery worker needs. */
export interface EvidenceRecoveryOptions {
  readonly ledger: LedgerEndpoint;
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
  /** Submissions refused `not-unknown`: the review queue (a projection) lagged its stream. */
  readonly alreadySettled: number;
  readonly records: readonly EvidenceRecord[];
  /** Unexpected answers, as text. */
  readonly errors: readonly string[];
}

/**
 * The recovery worker ("inspect, don't retry"): in a loop, reads every watched tenant's review
 * queue for `unknown_outcome` entries, looks each ticket up at the ticket system by its external
 * reference, and submits evidence — exactly one ticket → `found` with its id (Confirmed); none →
 * `not_found` (Released) and the intent is re-queued so a worker claims it again (the same
 * provider idempotency key goes to the ticket system); several → `inconclusive` (an operator's
 * case; the entry stays in the review queue).
 */
export class EvidenceRecovery {
  private passes = 0;
  private readonly records: EvidenceRecord[] = [];
  private readonly errors: string[] = [];
  private alreadySettled = 0;
  /** Operations already reported inconclusive: left to an operator, not re-submitted every pass. */
  private readonly inconclusiveSeen = new Set<string>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: EvidenceRecoveryOptions) {}

  /** Starts the loop in the background. */
  start(): void {
    this.running ??= this.loop();
  }

  /** Stops after the current pass. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** One pass over every watched review queue; resolves with the entries it acted on. */
  async runPass(): Promise<number> {
    this.passes++;
    let acted = 0;
    for (const tenant of this.options.tenants) {
      for await (const entry of unknownEntries(this.options.ledger, tenant)) {
        if (await this.recover(entry)) acted++;
      }
    }
    return acted;
  }

  /** Snapshot of the counters. */
  stats(): EvidenceRecoveryStats {
    const count = (verdict: Evidence['verdict']) => this.records.filter((r) => r.verdict === verdict).length;
    return {
      passes: this.passes,
      found: count('found'),
      notFound: count('not_found'),
      inconclusive: count('inconclusive'),
      alreadySettled: this.alreadySettled,
      records: [...this.records],
      errors: [...this.errors],
    };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.runPass();
      } catch (err) {
        this.errors.push(`pass ${this.passes}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await sleep(this.options.intervalMs);
    }
  }

  private async recover(entry: UnknownEntry): Promise<boolean> {
    const intent = this.options.intents.get(keyText(entry.key));
    if (!intent || this.inconclusiveSeen.has(entry.operationId)) return false; // not this run's to decide
    const { externalRef } = intent.ticket;
    const found = await this.options.tickets.findByExternalRef(externalRef);
    const providerKey =
      entry.startedSteps.find((s) => s.step === CREATE_TICKET_STEP)?.providerIdempotencyKey ?? null;
    const ticket = found.length === 1 ? found[0]! : null;
    const evidence: Evidence = {
      verdict: found.length === 0 ? 'not_found' : ticket ? 'found' : 'inconclusive',
      ...(ticket ? { destinationRef: ticket.id } : {}),
      checkedFields: {
        externalRef,
        ticketsWithRef: found.length,
        idempotencyKey: providerKey,
        idempotencyKeyMatches: ticket ? ticket.idempotencyKey === providerKey : null,
      },
      note: `GET /tickets?externalRef= at the ticket system: ${found.map((t) => t.id).join(', ') || 'no ticket'}`,
    };
    const answer = await submitEvidence(this.options.ledger, entry.operationId, evidence);
    if (answer.kind === 'refused') {
      if (answer.code === 'not-unknown') this.alreadySettled++;
      else this.errors.push(`evidence ${entry.operationId}: ${answer.status} ${answer.code}`);
      return false;
    }
    this.records.push({
      operationId: entry.operationId,
      verdict: evidence.verdict,
      destinationRef: ticket?.id ?? null,
    });
    if (evidence.verdict === 'not_found') this.options.requeue(intent, entry.operationId);
    if (evidence.verdict === 'inconclusive') this.inconclusiveSeen.add(entry.operationId);
    return true;
  }
}
