import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock.js';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import type { EventToAppend } from '../event-store/event-store.port.js';
import {
  decideDuplicateAudit,
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

/**
 * The coalesced audit of duplicate claims (docs/domain.md "Audit of duplicate claims"): keeps,
 * per audit stream, the window decided by `decideDuplicateAudit` (src/ledger/duplicate-window.ts)
 * and writes what it decides through {@link AuditWriter}. A window's pending count is written as
 * one record when the window ends (a timer), and every pending count is written before the
 * application shuts down cleanly (`beforeApplicationShutdown`, while the store is still open). A
 * crash loses the counts pending then — at most one window's worth per operation; the first
 * duplicate of every window is stored before its answer is given.
 */
@Injectable()
export class DuplicateAudit implements BeforeApplicationShutdown {
  readonly #open = new Map<string, OpenWindow>();
  #windowMs: number;

  constructor(
    private readonly writer: AuditWriter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LEDGER_CONFIG) config: LedgerConfig,
  ) {
    this.#windowMs = config.duplicateAuditWindowMs;
  }

  /**
   * True when {@link record} would only count `audit` into the open window, writing nothing now
   * (duplicates only, window > 0, a window open for them): a caller whose decision needs a write
   * to prove it current must then prove it some other way.
   */
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
   * Like {@link record}, for `audit` the caller has just appended itself (a conditional write
   * that proved its decision current): opens the window it starts and appends the record of a
   * window it ended. When another request opened a window for them meanwhile, nothing changes
   * (they are recorded on their own already).
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
    // duplicates still answered while the application stops are recorded one by one
    this.#windowMs = 0;
    const flushes = [...this.#open.keys()].map((name) => this.flush(name));
    await Promise.allSettled(flushes);
  }

  private arm(streamName: string, entry: OpenWindow): void {
    if (entry.timer) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void this.flush(streamName).catch(() => undefined);
    }, this.#windowMs);
    entry.timer.unref();
  }

  /**
   * Ends `streamName`'s window: writes its pending record and forgets it. Called by the window's
   * timer (real time: `until` is judged on the server clock, which tests may hold still) or at
   * shutdown.
   */
  private async flush(streamName: string): Promise<void> {
    const entry = this.#open.get(streamName);
    if (!entry) return;
    const record = flushDuplicateWindow(entry.window);
    const toStore = entry.pendingToStore;
    if (entry.timer) clearTimeout(entry.timer);
    this.#open.delete(streamName);
    if (record && toStore) await this.writer.write(streamName, toStore([record]));
  }
}
