import { basename } from 'node:path';
import type {
  ReconciliationApi,
  ReconciliationOptions,
  ReconciliationRun,
  SourceIntentOptions,
} from '@operation-ledger/client';
import type { CommandContext } from '../context.js';
import { startRunProgress, type RunProgress } from './run-progress.js';
import type { ExportFile } from './upload-file.js';

/** What `ledger reconcile --destination …` does. */
export interface StartPlan {
  readonly tenant: string;
  readonly destination: ExportFile;
  readonly options: ReconciliationOptions;
  /** Source intents: uploaded once the run waits for them (`awaitSource`). */
  readonly source?: { readonly file: ExportFile; readonly options: SourceIntentOptions };
  /** Poll until the run is completed or failed (else return the queued run). */
  readonly wait: boolean;
  /** Between polls, ms. */
  readonly intervalMs: number;
}

/**
 * Uploads the destination export, then the source intents when given, and with `wait` polls the
 * run until it is completed or failed.
 * @returns the last answer about the run.
 * @throws LedgerRequestError for a refusal of either upload, LedgerUnavailableError, the signal's
 *   reason on Ctrl-C (the run goes on in the ledger).
 */
export async function startReconciliationRun(
  ctx: CommandContext,
  api: ReconciliationApi,
  plan: StartPlan,
): Promise<ReconciliationRun> {
  const progress = startRunProgress(ctx.io.stderr, ctx.progress);
  let run: ReconciliationRun | undefined;
  try {
    const destination = uploadOf(plan.destination, progress, ctx.io.signal);
    run = await api.start(plan.tenant, destination.upload, plan.options).finally(destination.settled);
    if (plan.source) {
      const source = uploadOf(plan.source.file, progress, ctx.io.signal);
      run = await api
        .uploadSource(plan.tenant, run.id, source.upload, plan.source.options)
        .finally(source.settled);
    }
    if (!plan.wait) return run;
    const id = run.id;
    return await api.wait(plan.tenant, id, {
      intervalMs: plan.intervalMs,
      signal: ctx.io.signal,
      onProgress: (r) => {
        if (r.status === 'completed' || r.status === 'failed') return; // the summary follows
        progress.show(r.phase ?? r.status, r.progress.done, r.progress.total, r.phase ? 'rows' : '');
      },
    });
  } catch (err) {
    progress.stop();
    if (run && ctx.io.signal?.aborted)
      ctx.note(`reconciliation ${run.id} goes on in the ledger: ledger reconcile show ${run.id}`);
    throw err;
  } finally {
    progress.stop();
  }
}

/**
 * The file's upload, its bytes counted into the progress bar until `settled` (the ledger may
 * answer before reading it all, e.g. 403, while the file is still being read).
 */
function uploadOf(file: ExportFile, progress: RunProgress, signal: AbortSignal | undefined) {
  const stage = `upload ${file.path === '-' ? 'stdin' : basename(file.path)}`;
  let sent = 0;
  let open = true;
  progress.show(stage, 0, file.size ?? 0, 'bytes');
  const upload = file.upload((n) => {
    sent += n;
    if (open) progress.show(stage, sent, file.size ?? sent, 'bytes');
  }, signal);
  return { upload, settled: () => (open = false) };
}
