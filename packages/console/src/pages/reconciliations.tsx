import type { ReconciliationRun } from '@operation-ledger/protocol';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { download, get, seg } from '../api.js';
import type { PageProps } from '../page-props.js';
import { DataTable, type Column } from '../components/data-table.js';
import { ProblemView } from '../components/problem-view.js';
import { when } from '../format.js';

/** A run as GET /v1/tenants/{tenant}/reconciliations lists it (docs/reconciliation.md "The report"). */
type Run = ReconciliationRun;

/** Report categories and their column labels; the ones an operator must look into are `alert`. */
const CATEGORIES: readonly (readonly [string, string, boolean])[] = [
  ['matched', 'matched', false],
  ['fields_differ', 'fields differ', true],
  ['missing_at_destination', 'missing at destination', true],
  ['duplicate_effect', 'duplicate effect', true],
  ['unknown_found', 'unknown, found', true],
  ['unconfirmed_found', 'unconfirmed, found', true],
  ['orphan', 'orphan', true],
  ['never_claimed', 'never claimed', true],
  ['not_confirmed', 'not confirmed', true],
];

const FINISHED = ['completed', 'failed'];

/** Reading runs needs one of these roles (the routes answer 403 otherwise). */
const READERS = ['auditor', 'operator'];

function Status({ run }: { run: Run }) {
  const phase =
    run.status === 'running' && run.phase ? ` · ${run.phase} ${run.progress.done}/${run.progress.total}` : '';
  return (
    <span title={run.error ?? undefined}>
      <span class={`state state-${run.status}`}>{run.status}</span>
      {phase}
      {run.error ? <div class="hint">{run.error}</div> : null}
    </span>
  );
}

/**
 * The tenant's latest reconciliations against destination exports, newest first: status (with
 * the phase while running; polled until every run is finished), when and by whom, the rows
 * uploaded, the items per category once completed, and each run's items as a CSV download.
 * Runs are started from the CLI (`ledger reconcile --destination …`) or the API.
 */
export function ReconciliationsPage({ me, tenant }: PageProps) {
  const [runs, setRuns] = useState<Run[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const readable = me.roles.some((r) => READERS.includes(r));
  const path = `/v1/tenants/${seg(tenant)}/reconciliations`;

  useEffect(() => {
    if (!readable) return;
    get<{ items: Run[] }>(path, { limit: 20 }).then((page) => {
      setRuns(page.items);
      setError(null);
    }, setError);
  }, [path, readable, tick]);

  const busy = runs?.some((r) => !FINISHED.includes(r.status)) ?? false;
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setTick((t) => t + 1), 2000);
    return () => clearTimeout(timer);
  }, [busy, runs]);

  const columns = useMemo<Column<Run>[]>(
    () => [
      { id: 'status', header: 'Status', cell: (r) => <Status run={r} /> },
      { id: 'created', header: 'Created', cell: (r) => when(r.createdAt) },
      { id: 'by', header: 'By', cell: (r) => r.createdBy },
      { id: 'action', header: 'Action', cell: (r) => r.action ?? 'all' },
      {
        id: 'rows',
        header: 'Rows (dest / source)',
        cell: (r) => `${r.destinationRows} / ${r.sourceRows ?? '—'}`,
      },
      ...CATEGORIES.map(([c, label, alert]): Column<Run> => ({
        id: c,
        header: label,
        cell: (r) => {
          const n = r.totals?.byCategory[c];
          if (n === undefined) return '—';
          return <span class={alert && n > 0 ? 'n-alert' : ''}>{n}</span>;
        },
      })),
      {
        id: 'csv',
        header: 'Items',
        cell: (r) =>
          r.status === 'completed' ? (
            <button
              type="button"
              class="link"
              data-testid="run-csv"
              onClick={() => void download(r.links.csv, `reconciliation-${r.id}.csv`).catch(setError)}
            >
              CSV
            </button>
          ) : (
            '—'
          ),
      },
    ],
    [],
  );

  return (
    <section>
      <h1>Reconciliations</h1>
      <p class="hint">
        The destination's export compared with the ledger. Start one with{' '}
        <code>ledger reconcile --action … --destination export.csv</code>.
      </p>
      {readable ? null : (
        <p class="empty">Reading reconciliations needs a key with the auditor or operator role.</p>
      )}
      <ProblemView error={error} />
      {runs ? (
        <DataTable
          columns={columns}
          rows={runs}
          rowId={(r) => r.id}
          empty="No reconciliations yet."
          testId="reconciliations"
        />
      ) : null}
    </section>
  );
}
