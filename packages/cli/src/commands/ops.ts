import type { Command } from 'commander';
import type {
  OperationFilter,
  OperationRow,
  OperationState,
  OperationStatus,
} from '@operation-ledger/client';
import { OPERATION_STATES } from '@operation-ledger/protocol';
import { examples, type Kit } from '../command-kit.js';
import type { CommandContext } from '../context.js';
import { parseOperationRef } from '../operation-ref.js';
import { compact, fields, formatAge, keyText, table } from '../output/render.js';
import { nonNegativeInt, oneOf, positiveInt, timeArg } from '../parse-options.js';
import { registerHistory } from './history.js';
import { watchFeed } from './watch.js';

/** The states an operation can be in (docs/api.md "States"). */
export const STATES: readonly OperationState[] = OPERATION_STATES;

/** `ledger ops list|show|history|watch`. */
export function registerOps(program: Command, kit: Kit): void {
  const ops = program.command('ops').description('list, show, watch operations and their history');

  examples(
    ops
      .command('list')
      .description('the status view, newest change first, paging through cursors')
      .option('--state <state>', `one of ${STATES.join(', ')}`, oneOf(STATES))
      .option('--action <action>', 'only this action')
      .option('--source <source>', 'only this source')
      .option('--subject-prefix <prefix>', 'subjects starting with this')
      .option('--since <time>', 'changed at or after (ISO 8601, a date, or 2h ago)', timeArg)
      .option('--order <order>', 'desc (newest first) or asc', oneOf(['desc', 'asc'] as const))
      .option('--limit <n>', 'rows at most', positiveInt, 50)
      .option('--all', 'every matching row (ignores --limit)'),
    ['ledger ops list --state unknown --action invoice.create', 'ledger ops list --since 2h --all --json'],
  ).action(
    kit.act(async (ctx, _args, o) => {
      const tenant = await ctx.tenant();
      const filter: OperationFilter = {
        state: o.state,
        action: o.action,
        source: o.source,
        subjectPrefix: o.subjectPrefix,
        changedSince: o.since,
        order: o.order,
      };
      const rows: OperationRow[] = [];
      const max = o.all ? Infinity : (o.limit as number);
      let cursor: string | undefined;
      let last: Awaited<ReturnType<typeof ctx.client.operations.list>> | undefined;
      do {
        const limit = Math.min(500, Math.max(1, max - rows.length));
        last = await ctx.client.operations.list(tenant, { ...filter, limit, cursor });
        for (const row of last.items) {
          if (rows.length >= max) break;
          if (ctx.json) ctx.printJson(row);
          rows.push(row);
        }
        cursor = last.nextCursor ?? undefined;
      } while (cursor && rows.length < max);
      if (ctx.json) return;
      ctx.print(
        table(
          ['OPERATION', 'KEY', 'STATE', 'ATT', 'LAST CHANGE', 'DESTINATION', 'LAST ERROR'],
          rows.map((r) => [
            r.operationId,
            keyText(r.key),
            r.state,
            r.attempt as number,
            r.lastChange as string,
            r.destinationRef as string,
            compact((r.lastError as { code?: string } | null)?.code ?? null, 30),
          ]),
        ),
      );
      ctx.print(`${rows.length} operation(s) in ${tenant}${cursor ? ' (more: --limit or --all)' : ''}`);
      printFreshness(ctx, last);
    }),
  );

  examples(
    ops
      .command('show <operation>')
      .description(
        'one operation folded from its stream (an operationId, or tenant/source/action/subject[@rev])',
      )
      .option('--at-revision <n>', 'as it was at this stream revision (0-based)', nonNegativeInt)
      .option('--as-of <time>', 'as it was at this time (ISO 8601)', timeArg),
    [
      'ledger ops show 3f0c5e2a-6f1e-5b7c-9d2a-1b2c3d4e5f60',
      'ledger ops show acme/shop/invoice.create/order:812@2 --json',
    ],
  ).action(
    kit.act(async (ctx, [ref], o) => {
      const { operationId } = parseOperationRef(ref!);
      const status = await ctx.client.operations.get(operationId, { atRevision: o.atRevision, asOf: o.asOf });
      if (ctx.json) return ctx.printJson(status);
      printStatus(ctx, status);
    }),
  );

  registerHistory(ops, kit);

  examples(
    ops
      .command('watch')
      .description('tail operation changes live (SSE); resumes after a dropped connection from the last id')
      .option('--state <state>', 'changes into this state', oneOf(STATES))
      .option('--action <action>', 'only this action')
      .option('--source <source>', 'only this source')
      .option('--subject-prefix <prefix>', 'subjects starting with this')
      .option('--after <id>', 'resume after this event id (a checkpoint printed earlier)')
      .option('--count <n>', 'stop after this many changes', positiveInt),
    ['ledger ops watch --state unknown', 'ledger ops watch --action invoice.create --json | jq .state'],
  ).action(
    kit.act(async (ctx, _args, o) => {
      const filter = { state: o.state, action: o.action, source: o.source, subjectPrefix: o.subjectPrefix };
      await watchFeed(ctx, 'operations', filter, { after: o.after, count: o.count }, (data) => [
        String(data.event ?? ''),
        String(data.state ?? ''),
        keyText(data.key),
        String(data.operationId ?? ''),
      ]);
    }),
  );
}

/** The status document as a field table, then its steps. */
export function printStatus(ctx: CommandContext, s: OperationStatus): void {
  const lease = s.lease
    ? `${s.lease.workerId ? `${s.lease.workerId} ` : ''}attempt ${s.lease.attempt}, until ${s.lease.expiresAt}${s.lease.expired ? ' (expired)' : ''}`
    : null;
  // The ledger answers `{ revision, time }` with the one not asked for null.
  const asOf = s.asOf as { revision?: number | string | null; time?: string | null } | undefined;
  const asOfText = asOf
    ? [asOf.revision != null ? `revision ${asOf.revision}` : null, asOf.time ?? null]
        .filter((part) => part !== null)
        .join(', ')
    : null;
  ctx.print(
    fields([
      ['operation', s.operationId],
      ['key', keyText(s.key)],
      [
        'state',
        s.retryable === undefined || s.state !== 'failed'
          ? s.state
          : `${s.state} (retryable: ${s.retryable})`,
      ],
      ['attempt', s.attempt],
      ['fingerprint', s.fingerprint],
      ['payload', s.payload === undefined ? undefined : compact(s.payload ?? null, 120)],
      ['lease', lease],
      ['destination', s.destinationRef],
      ['last error', compact(s.lastError ?? null)],
      ['unknown', unknownText(s.unknown)],
      ...(s.unknown?.detail ? ([['why', s.unknown.detail]] as [string, string][]) : []),
      ['resolution', compact(s.resolution ?? null)],
      ['duplicate effects', compact(s.duplicateEffects ?? null)],
      ['created', s.createdAt as string],
      ['updated', s.updatedAt as string],
      ['revision', s.revision],
      ...(asOfText ? ([['as of', asOfText]] as [string, string][]) : []),
    ]),
  );
  if (s.steps.length === 0) return;
  ctx.print(
    table(
      ['STEP', 'STATUS', 'ATT', 'PROVIDER IDEMPOTENCY KEY', 'STARTED', 'COMPLETED'],
      s.steps.map((st) => [
        st.step,
        st.status,
        st.attempt,
        st.providerIdempotencyKey,
        st.startedAt,
        st.completedAt,
      ]),
    ),
  );
}

/** `reported_by_worker since T, attempt N` (the worker's full text goes on its own line). */
function unknownText(u: OperationStatus['unknown']): string | null {
  if (!u) return null;
  return `${u.cause ?? u.reason} since ${u.at}, attempt ${u.attempt}`;
}

/**
 * "read model at checkpoint N, N events / Ns behind" from a read-model answer — with `--verbose`
 * only (a debugging aid, not part of the answer).
 */
export function printFreshness(
  ctx: CommandContext,
  page: { checkpoint?: unknown; lag?: unknown } | undefined,
): void {
  const lag = page?.lag as { events?: number; seconds?: number } | undefined;
  if (!page?.checkpoint) return;
  if (!ctx.verbose) return;
  const behind =
    lag && (lag.events ?? 0) > 0
      ? `, ${lag.events} event(s) / ${formatAge((lag.seconds ?? 0) * 1000)} behind`
      : '';
  ctx.print(`read model at checkpoint ${page.checkpoint}${behind}`);
}
