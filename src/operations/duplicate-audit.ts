import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock.js';
import { withoutStoreDeadline } from '../common/store-deadline.js';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import type { EventToAppend } from '../event-store/event-store.port.js';
import {
  decideDuplicateAudit,
  duplicateCount,
  flushDuplicateWindow,
  type AuditEvent,
  type DuplicateWindow,
} from '../ledger/index.js';
import { AuditWriter } from './audit-writer.js';

/** Turns audit events into store events with one request's correlation metadata. */
export type ToStoreEvents = (events: readonly AuditEvent[]) => EventToAppend[];

interface OpenWindow {
  window: DuplicateWindow;
  /** Metadata of the first pending duplicate's request (the coalesced record carries it). */
  pendingToStore: ToStoreEvents | null;
  timer: NodeJS.Timeout | null;
}

/** A window's record the store refused when the window ended, written again later. */
interface UnwrittenRecord {
  readonly streamName: string;
  /** The same events (same ids) every time, so a write that did land is not stored twice. */
  readonly events: EventToAppend[];
  readonly count: number;
  delayMs: number;
  timer: NodeJS.Timeout | null;
}

/** Longest wait between two writes of a refused window record, ms. */
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * The coalesced audit of duplicate claims (docs/domain.md "Audit of duplicate claims"): per audit
 * stream, the window `decideDuplicateAudit` decides, written when it ends and at clean shutdown (a
 * crash loses at most one window's count per operation). A refused record is logged and retried
 * with doubling delays up to {@link MAX_RETRY_DELAY_MS}, and once more at shutdown.
 */
@Injectable()
export class DuplicateAudit implements BeforeApplicationShutdown {
  readonly #open = new Map<string, OpenWindow>();
  readonly #unwritten = new Set<UnwrittenRecord>();
  readonly #log = new Logger('DuplicateAudit');
  #windowMs: number;
  readonly #firstRetryMs: number;

  constructor(
    private readonly writer: AuditWriter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LEDGER_CONFIG) config: LedgerConfig,
  ) {
    this.#windowMs = config.duplicateAuditWindowMs;
    this.#firstRetryMs = Math.max(1, Math.min(config.duplicateAuditWindowMs, MAX_RETRY_DELAY_MS));
  }

  /** True when {@link record} would only count `audit` into the open window, writing nothing now. */
  wouldCount(streamName: string, audit: readonly AuditEvent[]): boolean {
    if (this.#windowMs <= 0 || audit.length === 0) return false;
    const open = this.#open.get(streamName);
    if (!open) return false;
    const decided = decideDuplicateAudit(open.window, audit, this.clock.now(), this.#windowMs);
    return decided.record.length === 0 && decided.ended.length === 0;
  }

  /**
   * Records `audit` (of a decision that stands) for `streamName`: duplicates counted into the
   * window, the rest — and the record of a window it ended — appended now.
   * @throws EventStoreUnavailableError when the store is down.
   */
  record(streamName: string, audit: readonly AuditEvent[], toStore: ToStoreEvents): Promise<void> {
    return this.apply(streamName, audit, toStore, false);
  }

  /**
   * Like {@link record}, for `audit` the caller has already appended (a conditional write).
   * @throws EventStoreUnavailableError when the store is down.
   */
  recorded(streamName: string, audit: readonly AuditEvent[], toStore: ToStoreEvents): Promise<void> {
    return this.apply(streamName, audit, toStore, true);
  }

  private async apply(
    streamName: string,
    audit: readonly AuditEvent[],
    toStore: ToStoreEvents,
    ownWritten: boolean,
  ): Promise<void> {
    if (audit.length === 0) return;
    if (this.#windowMs <= 0) return ownWritten ? undefined : this.writer.write(streamName, toStore(audit));
    const open = this.#open.get(streamName);
    const before = open?.window.pending ?? null;
    const decided = decideDuplicateAudit(open?.window, audit, this.clock.now(), this.#windowMs);
    const { ended, record: own } = decided;
    if (ownWritten && own.length === 0 && ended.length === 0) return;
    const entry = open ?? { window: decided.window, pendingToStore: null, timer: null };
    const endedToStore = entry.pendingToStore;
    entry.window = decided.window;
    if (decided.window.pending && (!before || ended.length > 0)) entry.pendingToStore = toStore;
    if (!decided.window.pending) entry.pendingToStore = null;
    this.#open.set(streamName, entry);
    this.arm(streamName, entry);
    const writes: Promise<void>[] = [];
    if (ended.length > 0) writes.push(this.writer.write(streamName, (endedToStore ?? toStore)(ended)));
    if (own.length > 0 && !ownWritten) writes.push(this.writer.write(streamName, toStore(own)));
    await Promise.all(writes);
  }

  /** Writes every pending count now (clean shutdown); from then on every duplicate on its own. */
  async beforeApplicationShutdown(): Promise<void> {
    this.#windowMs = 0;
    const flushes = [...this.#open.keys()].map((name) => this.flush(name));
    await Promise.allSettled(flushes);
    const retries = [...this.#unwritten].map(async (r) => {
      if (r.timer) clearTimeout(r.timer);
      r.timer = null;
      try {
        await this.writer.write(r.streamName, r.events);
        this.#unwritten.delete(r);
      } catch (err) {
        this.#log.error(
          `${r.count} duplicate claims of ${r.streamName} lost: the store refused their record at shutdown (${String(err)})`,
        );
      }
    });
    await Promise.all(retries);
  }

  private arm(streamName: string, entry: OpenWindow): void {
    if (entry.timer) return;
    // The timer outlives the request that armed it: its write has no store deadline.
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void withoutStoreDeadline(() => this.flush(streamName));
    }, this.#windowMs);
    entry.timer.unref();
  }

  /** Ends `streamName`'s window (its timer, or shutdown): writes its pending record. */
  private async flush(streamName: string): Promise<void> {
    const entry = this.#open.get(streamName);
    if (!entry) return;
    const record = flushDuplicateWindow(entry.window);
    const toStore = entry.pendingToStore;
    if (entry.timer) clearTimeout(entry.timer);
    this.#open.delete(streamName);
    if (!record || !toStore) return;
    const unwritten: UnwrittenRecord = {
      streamName,
      events: toStore([record]),
      count: duplicateCount(record.data),
      delayMs: this.#firstRetryMs,
      timer: null,
    };
    await this.write(unwritten);
  }

  /** Writes `r`; when the store refuses it, logs that and tries again later (see the class). */
  private async write(r: UnwrittenRecord): Promise<void> {
    try {
      await this.writer.write(r.streamName, r.events);
      this.#unwritten.delete(r);
    } catch (err) {
      this.#unwritten.add(r);
      this.#log.error(
        `${r.count} duplicate claims of ${r.streamName} not recorded yet: the store refused their record ` +
          `(${String(err)}); trying again in ${r.delayMs} ms`,
      );
      if (this.#windowMs <= 0) return; // shutting down: beforeApplicationShutdown tries once more
      r.timer = setTimeout(() => {
        r.timer = null;
        void withoutStoreDeadline(() => this.write(r));
      }, r.delayMs);
      r.timer.unref();
      r.delayMs = Math.min(r.delayMs * 2, MAX_RETRY_DELAY_MS);
    }
  }
}
