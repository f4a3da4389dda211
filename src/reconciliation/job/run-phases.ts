import { PHASES, type Phase } from '../run.js';
import { categorize, lastLine, matchLines, takeSnapshot } from '../sql/phase-statements.js';
import { completeRun, countItems, recordCheckpoint } from '../sql/report-queries.js';
import { applyWrites, compareFields } from './apply-writes.js';
import { LeaseLostError, type PhaseContext } from './phase-context.js';

/** Destination lines matched per statement (each chunk ends with a progress write). */
export const MATCH_CHUNK = 50_000;

/**
 * Runs a held run's phases from the one it recorded (a resumed run starts that phase again; each
 * phase is idempotent) to completion: snapshot → match → categorize → compare → apply → totals.
 * The report is marked `completed` only after the last phase, in one statement with its totals,
 * so a run is never shown complete with a half report.
 * @throws LeaseLostError when another instance took the run over; store errors as they come.
 */
export async function runPhases(ctx: PhaseContext): Promise<void> {
  const { run, sql } = ctx;
  const start = Math.max(0, PHASES.indexOf(run.phase ?? 'snapshot'));
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
          const upTo = Math.min(total, done + MATCH_CHUNK);
          await matchLines(sql, run, done, upTo);
          done = upTo;
          await ctx.progress('match', done, total);
        }
        break;
      }
      case 'categorize':
        await ctx.progress('categorize', 0, 1);
        await categorize(sql, run, ctx.clock.now());
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
