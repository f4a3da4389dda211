import type { Command } from 'commander';
import type { HistoryEvent } from '@operation-ledger/client';
import { examples, type Kit } from '../command-kit.js';
import { parseOperationRef } from '../operation-ref.js';
import { compact, keyText, table } from '../output/render.js';
import { nonNegativeInt, timeArg } from '../parse-options.js';

/** `ledger ops history <operation> [--as-of T | --at-revision N]`: the audit timeline. */
export function registerHistory(ops: Command, kit: Kit): void {
  examples(
    ops
      .command('history <operation>')
      .description(
        'every event of an operation (decision and audit streams merged in commit order) as a timeline',
      )
      .option('--at-revision <n>', 'only up to this decision-stream revision (0-based)', nonNegativeInt)
      .option('--as-of <time>', 'only events recorded at or before this time (ISO 8601)', timeArg),
    [
      'ledger ops history acme/shop/invoice.create/order:812',
      'ledger ops history 3f0c5e2a-6f1e-5b7c-9d2a-1b2c3d4e5f60 --at-revision 3 --json',
    ],
  ).action(
    kit.act(async (ctx, [ref], o) => {
      const { operationId } = parseOperationRef(ref!);
      const history = await ctx.client.operations.history(operationId);
      const events = cutHistory(history.events, history.streamName, o.atRevision, o.asOf);
      if (ctx.json) {
        for (const e of events) ctx.printJson(e);
        return;
      }
      ctx.print(`${keyText(history.key)}  ${history.operationId}`);
      ctx.print(
        table(
          ['REV', 'RECORDED', 'EVENT', 'ATT', 'ACTOR', 'STEP', 'DETAIL'],
          events.map((e) => {
            const audit = e.streamName !== undefined && e.streamName !== history.streamName;
            return [
              audit ? 'audit' : String(e.streamPosition),
              e.recordedAt,
              e.type,
              (e.data.attempt as number | undefined) ?? null,
              actorOf(e),
              (e.data.step as string | undefined) ?? null,
              detailOf(e),
            ];
          }),
        ),
      );
      ctx.print(`${events.length} of ${history.events.length} event(s)`);
    }),
  );
}

/**
 * The events up to decision revision `atRevision` (audit events up to that event's commit
 * position) and/or recorded at or before `asOf`.
 */
export function cutHistory(
  events: readonly HistoryEvent[],
  decisionStream: string,
  atRevision?: number,
  asOf?: string,
): HistoryEvent[] {
  let out = [...events];
  if (atRevision !== undefined) {
    const decision = out.filter((e) => (e.streamName ?? decisionStream) === decisionStream);
    const cut = decision.find((e) => Number(e.streamPosition) === atRevision);
    const limit = cut ? BigInt(cut.globalPosition) : -1n;
    out = cut ? out.filter((e) => BigInt(e.globalPosition) <= limit) : [];
  }
  if (asOf !== undefined) {
    const t = Date.parse(asOf);
    out = out.filter((e) => Date.parse(e.recordedAt) <= t);
  }
  return out;
}

/**
 * Who caused the event: the ledger's actor label (key name, plus the worker id where a worker
 * acted); from a ledger without it, the operator, else the worker, else the API key id.
 */
function actorOf(e: HistoryEvent): string | null {
  if (e.actor?.label) return e.actor.label;
  const d = e.data;
  const actor = d.actor ?? d.workerId ?? e.metadata?.keyId;
  return actor === undefined || actor === null ? null : String(actor);
}

/** The reason and the outcome-bearing fields of an event, in one short line. */
function detailOf(e: HistoryEvent): string {
  const d = e.data;
  const bits: string[] = [];
  const add = (label: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== '') bits.push(`${label}=${compact(v, 60)}`);
  };
  if (e.type === 'OutcomeUnknown') add('cause', unknownCause(d));
  else add('reason', d.reason);
  add('resolution', d.resolution);
  add('verdict', d.verdict);
  add('answer', d.answer);
  if (d.error && typeof d.error === 'object') {
    const err = d.error as { code?: string; message?: string };
    add('error', `${err.code}: ${err.message}`);
  }
  add('retryable', d.retryable);
  add('ref', d.destinationRef ?? d.incomingRef);
  add('recordedRef', d.recordedRef);
  add(
    'via',
    d.source === undefined || typeof d.source !== 'string' || e.type !== 'OperationConfirmed'
      ? undefined
      : d.source,
  );
  add('lease until', d.leaseExpiresAt);
  add(
    'steps',
    Array.isArray(d.unfinishedSteps) && d.unfinishedSteps.length ? d.unfinishedSteps.join(',') : undefined,
  );
  add('note', d.note);
  add('by', d.byRevision);
  return bits.join(' ');
}

/**
 * An OutcomeUnknown's true label: its `cause`, or for an event recorded before that field (streams
 * are never rewritten) the server's reading of `reason` — an expired lease is
 * `lease_expired_after_step`, a worker's report `reported_by_worker` (docs/domain.md).
 */
function unknownCause(d: Record<string, unknown>): unknown {
  if (d.cause) return d.cause;
  return d.reason === 'lease_expired' ? 'lease_expired_after_step' : 'reported_by_worker';
}
