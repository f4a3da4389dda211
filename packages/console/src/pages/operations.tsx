import type { OperationRow } from '@operation-ledger/protocol';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { get, seg } from '../api.js';
import type { PageProps } from '../page-props.js';
import { DataTable, type Column } from '../components/data-table.js';
import { ProblemView } from '../components/problem-view.js';
import { keyText, localToIso, STATES, text, when } from '../format.js';
import { href } from '../router.js';
import { KeySearch } from './key-search.js';
import { SearchBox } from './search-box.js';

/** A row of the status view (GET /v1/tenants/{tenant}/operations), as the protocol types it. */
type Row = OperationRow;

interface Filters {
  state: string;
  action: string;
  source: string;
  subjectPrefix: string;
  changedSince: string;
}

const EMPTY: Filters = { state: '', action: '', source: '', subjectPrefix: '', changedSince: '' };

/**
 * The status view: every operation of the tenant, newest change first, with filters (state,
 * action, source, subject prefix, changed since) and cursor paging (the cursors of the pages
 * seen are kept for "previous"); one search box (subject prefix, key or id) and the search by key
 * parts; an open duplicate effect is badged beside the state.
 */
export function OperationsPage({ tenant }: PageProps) {
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [rows, setRows] = useState<Row[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [limit, setLimit] = useState(50);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    get<{ items: Row[]; nextCursor: string | null }>(`/v1/tenants/${seg(tenant)}/operations`, {
      ...filters,
      changedSince: localToIso(filters.changedSince),
      limit,
      cursor,
    }).then((page) => {
      setRows(page.items);
      setNext(page.nextCursor);
      setError(null);
    }, setError);
  }, [tenant, filters, cursor, limit]);

  const apply = (f: Filters) => {
    setFilters(f);
    setCursors([undefined]);
  };

  const columns = useMemo<Column<Row>[]>(
    () => [
      {
        id: 'key',
        header: 'Operation',
        cell: (r) => <a href={href({ page: 'operation', id: r.operationId })}>{keyText(r.key)}</a>,
      },
      {
        id: 'state',
        header: 'State',
        cell: (r) => (
          <>
            <span class={`state state-${r.state}`}>{r.state}</span>
            {(r.openDuplicateEffects ?? 0) > 0 ? (
              <span
                class="tag tag-duplicate-open"
                title={`${r.openDuplicateEffects} second effect(s) at the destination, not acknowledged`}
                data-testid="duplicate-badge"
              >
                {' '}
                duplicate effect
              </span>
            ) : null}
          </>
        ),
      },
      { id: 'attempt', header: 'Attempt', cell: (r) => r.attempt },
      { id: 'step', header: 'Last step', cell: (r) => r.lastCompletedStep ?? '—' },
      { id: 'ref', header: 'Destination ref', cell: (r) => r.destinationRef ?? '—' },
      { id: 'error', header: 'Last error', cell: (r) => (r.lastError ? text(r.lastError.code) : '—') },
      {
        id: 'lease',
        header: 'Lease',
        cell: (r) => (r.lease ? `${r.lease.workerId ?? ''} until ${when(r.lease.expiresAt)}` : '—'),
      },
      { id: 'first', header: 'First seen', cell: (r) => when(r.firstSeen) },
      { id: 'change', header: 'Last change', cell: (r) => when(r.lastChange) },
    ],
    [],
  );

  return (
    <section>
      <h1>Operations</h1>
      <SearchBox tenant={tenant} onPrefix={(subjectPrefix) => apply({ ...EMPTY, subjectPrefix })} />
      <KeySearch tenant={tenant} />
      <form
        class="filters"
        data-testid="operation-filters"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          apply(
            Object.fromEntries(
              Object.keys(EMPTY).map((k) => [k, String(f.get(k) ?? '').trim()]),
            ) as unknown as Filters,
          );
        }}
      >
        <label>
          State
          <select name="state">
            <option value="">any</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <input name="action" />
        </label>
        <label>
          Source
          <input name="source" />
        </label>
        <label>
          Subject prefix
          <input name="subjectPrefix" placeholder="order:" />
        </label>
        <label>
          Changed since
          <input name="changedSince" type="datetime-local" step={1} />
        </label>
        <label>
          Per page
          <select
            value={String(limit)}
            onChange={(e) => {
              setLimit(Number(e.currentTarget.value));
              setCursors([undefined]);
            }}
          >
            {[25, 50, 100, 200].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
        <button type="reset" onClick={() => apply(EMPTY)}>
          Clear
        </button>
      </form>
      <ProblemView error={error} />
      <DataTable
        columns={columns}
        rows={rows}
        rowId={(r) => r.operationId}
        empty="No operations match."
        testId="operations"
      />
      <div class="pager">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Previous
        </button>
        <span>Page {cursors.length}</span>
        <button
          type="button"
          disabled={!next}
          onClick={() => next && setCursors([...cursors, next])}
          data-testid="next-page"
        >
          Next →
        </button>
      </div>
    </section>
  );
}
