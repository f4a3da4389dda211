import { PHASES, type Phase } from '../run.js';
import {
  categorizeLines,
  categorizeOperations,
  categorizeSourceLines,
  lastSourceLine,
  startCategorize,
} from '../sql/categorize-statements.js';
import { lastLine, matchLines, takeSnapshot } from '../sql/phase-statements.js';
import { completeRun, countItems, recordCheckpoint } from '../sql/report-queries.js';
import { applyWrites, compareFields } from './apply-writes.js';
import { chunkLines } from './chunk-lines.js';
import { LeaseLostError, type PhaseContext } from './phase-context.js';

/**
 * Runs a held run's idempotent phases from the one it recorded to completion (docs/reconciliation.md
 * "How it runs"); `completed` is set with the totals in one statement, never on a half report.
 * @throws LeaseLostError when another instance took the run over; DiskFloorError when the
 *   volume has too little room for the next chunk; store errors as they come.
 */
export async function runPhases(ctx: PhaseContext): Promise<void> {
  const { run, sql } = ctx;
  const start = Math.max(0, PHASES.indexOf(run.phase ?? 'snapshot'));
  const chunk = chunkLines(run.stored, ctx.headroomBytes);
  let checkpoint = run.checkpoint ?? '-1';
  for (const phase of PHASES.slice(start) as Phase[]) {
    switch (phase) {
      case 'snapshot':
        await ctx.progress('snapshot', 0, 1);
        await ctx.awaitStatusView();
        checkpoint = await takeSnapshot(sql, run);
        await recordCheckpoint(sql, run.id, checkpoint);
        break;
      case 'match': {
        const total = await lastLine(sql, run.id);
        // resume after the last chunk recorded (re-matching a chunk is harmless)
        let done = run.phase === 'match' ? Math.min(run.progress.done, total) : 0;
        await ctx.progress('match', done, total);
        while (done < total) {
          const upTo = Math.min(total, done + chunk);
          await matchLines(sql, run, done, upTo);
          done = upTo;
          await ctx.progress('match', done, total);
        }
        break;
      }
      case 'categorize':
        await categorizeInChunks(ctx, chunk);
        break;
      case 'compare':
        await ctx.progress('compare', 0, 0);
        if (run.options.compare.length > 0) await compareFields(ctx);
        break;
      case 'apply':
        await ctx.progress('apply', 0, 0);
        await applyWrites(ctx);
        break;
      case 'totals': {
        await ctx.progress('totals', 0, 1);
        const totals = await countItems(sql, run.id);
        if (!(await completeRun(sql, run.id, ctx.holder, totals, checkpoint))) {
          throw new LeaseLostError(`reconciliation ${run.id} is held by another instance`);
        }
        break;
      }
    }
  }
}

/** The categorize phase, always from its start, in chunks of lines. */
async function categorizeInChunks(ctx: PhaseContext, chunk: number): Promise<void> {
  const { run, sql } = ctx;
  const now = ctx.clock.now();
  const lines = await lastLine(sql, run.id);
  const sourceLines = await lastSourceLine(sql, run.id);
  const total = lines + sourceLines + 1;
  await ctx.progress('categorize', 0, total);
  await startCategorize(sql, run);
  let done = 0;
  for (let after = 0; after < lines; after += chunk) {
    await ctx.progress('categorize', done, total);
    await categorizeLines(sql, run, after, Math.min(lines, after + chunk), now);
    done = Math.min(lines, after + chunk);
  }
  await ctx.progress('categorize', done, total);
  await categorizeOperations(sql, run, now);
  done += 1;
  for (let after = 0; after < sourceLines; after += chunk) {
    await ctx.progress('categorize', done, total);
    await categorizeSourceLines(sql, run, after, Math.min(sourceLines, after + chunk));
    done = lines + 1 + Math.min(sourceLines, after + chunk);
  }
}
