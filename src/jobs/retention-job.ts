import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { MIN_RETENTION_MS, auditStreamName, decideArchive, operationStreamName } from '../ledger/index.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { newRequestContext } from '../operations/request-context.js';
import { DecideAndAppend } from '../operations/decide-and-append.js';
import { PolicyStore } from '../policies/policy-store.js';
import { finishedOperations, finishedScopes } from '../projections/status-view.js';

/** What one retention pass did. */
export interface RetentionReport {
  readonly examined: number;
  readonly archived: number;
  /** Events removed from decision and audit streams (-1 per stream where the store cannot tell). */
  readonly eventsRemoved: bigint;
}

/** Most operations one pass archives per tenant and action. */
export const RETENTION_BATCH = 200;

/**
 * Retention (docs/domain.md "Retention"): the status view nominates finished operations past
 * their policy's `retentionMs`; each is re-decided on its own stream (live work is never
 * archived), tombstoned, and the store truncates what precedes the tombstone.
 */
@Injectable()
export class RetentionJob {
  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly loop: DecideAndAppend,
    private readonly policies: PolicyStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** One pass over every tenant and action. @throws EventStoreUnavailableError. */
  async compactOnce(): Promise<RetentionReport> {
    const now = this.clock.now();
    const pairs = await finishedScopes(this.sql, now - MIN_RETENTION_MS);
    let examined = 0;
    let archived = 0;
    let eventsRemoved = 0n;
    const ctx = newRequestContext(`retention-${now}`, 'retention');
    for (const { tenant, action } of pairs) {
      const { policy } = await this.policies.policyFor(tenant, action);
      if (policy.retentionMs === null) continue;
      const keys = await finishedOperations(
        this.sql,
        { tenant, action },
        now - policy.retentionMs,
        RETENTION_BATCH,
      );
      for (const key of keys) {
        examined++;
        const command = {
          type: 'ArchiveOperation',
          now: this.clock.now(),
          retentionMs: policy.retentionMs,
          afterRetention: policy.afterRetention,
        } as const;
        const done = await this.loop.run(key, (state) => decideArchive(command, state), ctx);
        if (done.kind !== 'accepted' || done.events.length === 0 || done.revision === null) continue;
        archived++;
        eventsRemoved += await this.store.truncateBefore(operationStreamName(key), done.revision);
        const audit = await this.store.read(auditStreamName(key));
        if (audit.length) {
          eventsRemoved += await this.store.truncateBefore(
            auditStreamName(key),
            audit[audit.length - 1]!.streamPosition + 1n,
          );
        }
      }
    }
    return { examined, archived, eventsRemoved };
  }
}
