import type { JsonValue, OperationKey } from '../../ledger/index.js';
import { finishItem, itemsToWork } from '../sql/report-queries.js';
import { fieldDifferences } from './compare-fields.js';
import type { PhaseContext } from './phase-context.js';

/** Items worked on per round (each round ends with a progress write). */
const ROUND = 100;

type Work = Awaited<ReturnType<typeof itemsToWork>>[number];

function keyOf(ctx: PhaseContext, item: Work): OperationKey {
  return {
    tenant: ctx.run.tenant,
    source: item.source!,
    action: item.action!,
    subject: item.subject!,
    revision: item.revision!,
  };
}

/** Compare phase: matched records whose configured fields differ from the payload become `fields_differ`. */
export async function compareFields(ctx: PhaseContext): Promise<void> {
  const { run, sql } = ctx;
  for (const category of ['matched', 'fields_differ'] as const) {
    for (let done = 0; ;) {
      const items = await itemsToWork(sql, run.id, category, 'compare', ROUND);
      if (items.length === 0) break;
      for (const item of items) {
        const payload = await ctx.writes.payloadOf(keyOf(ctx, item));
        const fields = (item.detail.fields ?? {}) as Record<string, string | null>;
        const found = fieldDifferences(payload, fields, run.options.compare);
        const earlier = (item.detail.differences ?? []) as unknown[];
        const differences = [...earlier, ...found];
        await finishItem(sql, run.id, item.seq, {
          category: differences.length > 0 ? 'fields_differ' : 'matched',
          detail: differences.length > 0 ? { ...item.detail, differences } : item.detail,
        });
      }
      done += items.length;
      await ctx.progress('compare', done, 0);
    }
  }
}

/**
 * Apply phase: with `apply=evidence`, records found for Unknown operations are submitted as
 * `found` evidence; then extra records are reported as duplicate effects (after the evidence, so
 * a newly confirmed operation gets them too). Both decisions are idempotent, so a restart
 * records nothing twice.
 */
export async function applyWrites(ctx: PhaseContext): Promise<void> {
  const { run, sql } = ctx;
  let done = 0;
  for (;;) {
    const items = await itemsToWork(sql, run.id, 'unknown_found', 'pending', ROUND);
    if (items.length === 0) break;
    for (const item of items) {
      const checkedFields: Record<string, JsonValue> = {
        reconciliationId: run.id,
        match: run.match,
        reference: item.reference,
        recordId: item.recordId,
      };
      for (const [k, v] of Object.entries((item.detail.fields ?? {}) as Record<string, string | null>)) {
        checkedFields[`destination.${k}`] = v;
      }
      const answer = await ctx.writes.submitFound(
        {
          operationId: item.operationId!,
          recordId: item.recordId!,
          checkedFields,
          note: `reconciliation ${run.id}: record ${item.recordId} at the destination carries reference ${item.reference} (line ${item.line})`,
        },
        run.id,
        run.createdBy,
      );
      await finishItem(sql, run.id, item.seq, {
        outcome: answer === 'applied' ? 'evidence_applied' : `evidence_refused:${answer}`,
      });
    }
    done += items.length;
    await ctx.progress('apply', done, 0);
  }
  for (;;) {
    const items = await itemsToWork(sql, run.id, 'duplicate_effect', 'pending', ROUND);
    if (items.length === 0) break;
    for (const item of items) {
      const outcome = await ctx.writes.reportDuplicate(
        keyOf(ctx, item),
        item.recordId!,
        run.id,
        run.createdBy,
      );
      await finishItem(sql, run.id, item.seq, { outcome });
    }
    done += items.length;
    await ctx.progress('apply', done, 0);
  }
}
