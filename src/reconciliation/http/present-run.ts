import type { ReconciliationRunDto } from './run-answers.dto.js';
import type { ReconciliationRun } from '../run.js';

/** A run as the API shows it (docs/reconciliation.md "The report"); totals only once `completed`. */
export function presentRun(run: ReconciliationRun): ReconciliationRunDto {
  const base = `/v1/tenants/${encodeURIComponent(run.tenant)}/reconciliations/${run.id}`;
  return {
    id: run.id,
    tenant: run.tenant,
    action: run.action,
    from: run.from,
    to: run.to,
    match: run.match,
    apply: run.apply,
    options: run.options,
    status: run.status,
    phase: run.phase,
    progress: run.progress,
    destinationRows: run.destinationRows,
    sourceRows: run.sourceRows,
    checkpoint: run.checkpoint,
    totals: run.status === 'completed' ? run.totals : null,
    error: run.error,
    createdBy: run.createdBy.name,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    links: {
      self: base,
      items: `${base}/items`,
      csv: `${base}/items?format=csv`,
      ...(run.status === 'awaiting_source' ? { source: `${base}/source` } : {}),
    },
  };
}
