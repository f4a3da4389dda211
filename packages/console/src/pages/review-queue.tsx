import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { get, seg } from '../api.js';
import type { PageProps } from '../page-props.js';
import { DataTable, type Column } from '../components/data-table.js';
import { FeedBadge } from '../components/feed-status.js';
import { ProblemView } from '../components/problem-view.js';
import { age, keyText, reasonLabel, REVIEW_REASONS, when } from '../format.js';
import { href } from '../router.js';
import { subscribe, type FeedStatus } from '../sse.js';
import { UnknownWhy } from '../components/unknown-why.js';
import { canOperate } from '../session.js';
import { BulkBar } from './bulk-actions.js';
import {
  applyReviewChange,
  entryDetail,
  unknownCauseOf,
  type QueueEntry,
  type ReviewChange,
} from './queue-entries.js';

interface QueuePage {
  readonly checkpoint: string;
  readonly summary: Record<string, { count: number; oldestSince: string | null }>;
  readonly items: (QueueEntry & { ageMs: number })[];
  readonly nextCursor: string | null;
}

const PAGE = 200;

/**
 * The review queue (home): operations waiting for a human, oldest first with their age, counts
 * per reason, filters by reason and action. Live: follows `…/review-queue/changes` from the
 * checkpoint of the page it loaded, applies each change at once, and resumes with Last-Event-ID
 * after a dropped connection (a `reset` reloads). Operators select unknown outcomes and act on
 * them in bulk (bulk-actions.tsx).
 */
export function ReviewQueuePage({ tenant, me }: PageProps) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [reason, setReason] = useState('');
  const [action, setAction] = useState('');
  const [entries, setEntries] = useState<QueueEntry[]>([]);
  const [summary, setSummary] = useState<QueuePage['summary']>({});
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState<FeedStatus>({ kind: 'connecting' });
  const [loaded, setLoaded] = useState(false);
  const [skewMs, setSkewMs] = useState(0);
  const [now, setNow] = useState(Date.now());
  const cursorRef = useRef<string | null>(null);
  const base = `/v1/tenants/${seg(tenant)}/review-queue`;

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);

  const keep = useCallback((e: QueueEntry) => !reason || e.reason === reason, [reason]);

  useEffect(() => {
    let stop = () => {};
    let summaryTimer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const refreshSummary = () => {
      clearTimeout(summaryTimer);
      summaryTimer = setTimeout(() => {
        get<QueuePage>(base, { action, limit: 1 }).then((p) => !cancelled && setSummary(p.summary), setError);
      }, 250);
    };
    const load = async () => {
      stop();
      setLoaded(false);
      try {
        const page = await get<QueuePage>(base, { reason, action, limit: PAGE });
        if (cancelled) return;
        const first = page.items[0];
        setSkewMs(first ? Date.parse(first.since) + first.ageMs - Date.now() : 0);
        setEntries(page.items);
        setSummary(page.summary);
        setCursor(page.nextCursor);
        cursorRef.current = page.nextCursor;
        setError(null);
        setLoaded(true);
        // First render of the queue, for the budget in docs/console.md (read with the Performance API).
        if (performance.getEntriesByName('queue-rendered').length === 0) performance.mark('queue-rendered');
        stop = subscribe(`${base}/changes${action ? `?action=${encodeURIComponent(action)}` : ''}`, {
          lastEventId: page.checkpoint,
          onStatus: setStatus,
          onEvent: (event) => {
            if (event.type === 'reset') return void load();
            if (event.type !== 'review') return;
            const change = event.data as unknown as ReviewChange;
            setEntries((current) => applyReviewChange(current, change, keep, cursorRef.current === null));
            refreshSummary();
          },
        });
      } catch (e) {
        if (!cancelled) setError(e);
      }
    };
    void load();
    return () => {
      cancelled = true;
      clearTimeout(summaryTimer);
      stop();
    };
  }, [base, reason, action, keep]);

  const loadMore = async () => {
    if (!cursor) return;
    try {
      const page = await get<QueuePage>(base, { reason, action, limit: PAGE, cursor });
      setEntries((current) => [...current, ...page.items.filter((i) => !current.some((c) => same(c, i)))]);
      setCursor(page.nextCursor);
      cursorRef.current = page.nextCursor;
    } catch (e) {
      setError(e);
    }
  };

  const operator = canOperate(me);
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const selectable = entries.filter((e) => e.reason === 'unknown_outcome');
  const targets = selectable.filter((e) => selected.has(e.operationId));

  const columns = useMemo<Column<QueueEntry>[]>(
    () => [
      ...(operator
        ? [
            {
              id: 'select',
              header: '',
              cell: (e: QueueEntry) =>
                e.reason === 'unknown_outcome' ? (
                  <input
                    type="checkbox"
                    aria-label={`select ${keyText(e.key)}`}
                    checked={selected.has(e.operationId)}
                    onChange={(ev) => toggle(e.operationId, ev.currentTarget.checked)}
                    data-testid="select"
                  />
                ) : null,
            },
          ]
        : []),
      {
        id: 'age',
        header: 'Age',
        cell: (e) => <span title={when(e.since)}>{age(now + skewMs - Date.parse(e.since))}</span>,
      },
      {
        id: 'reason',
        header: 'Reason',
        cell: (e) => <span class={`tag tag-${e.reason}`}>{reasonLabel(e.reason)}</span>,
      },
      {
        id: 'key',
        header: 'Operation',
        cell: (e) => (
          <a href={href({ page: 'operation', id: e.operationId })} data-testid="queue-link">
            {keyText(e.key)}
          </a>
        ),
      },
      {
        id: 'detail',
        header: 'Detail',
        cell: (e) =>
          e.reason === 'unknown_outcome' ? (
            <>
              <UnknownWhy cause={unknownCauseOf(e)} detail={e.unknownDetail as string | null} />
              {entryDetail(e) ? <div class="hint">{entryDetail(e)}</div> : null}
            </>
          ) : (
            entryDetail(e)
          ),
      },
      { id: 'since', header: 'Waiting since', cell: (e) => when(e.since) },
    ],
    [now, skewMs, operator, selected],
  );

  return (
    <section>
      <div class="title-row">
        <h1>Review queue</h1>
        <FeedBadge status={status} />
      </div>
      <div class="counts" data-testid="counts">
        {REVIEW_REASONS.map(([r, label]) => (
          <button
            type="button"
            key={r}
            class={`count ${reason === r ? 'selected' : ''}`}
            onClick={() => setReason(reason === r ? '' : r)}
            data-testid={`count-${r}`}
          >
            <span class="n">{summary[r]?.count ?? 0}</span> {label}
          </button>
        ))}
      </div>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Reason
          <select
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-testid="reason-filter"
          >
            <option value="">all</option>
            {REVIEW_REASONS.map(([r, label]) => (
              <option key={r} value={r}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <input
            placeholder="e.g. invoice.create"
            onChange={(e) => setAction(e.currentTarget.value.trim())}
            data-testid="action-filter"
          />
        </label>
      </form>
      <ProblemView error={error} />
      {operator ? (
        <div class="bulk-select">
          <label>
            <input
              type="checkbox"
              checked={selectable.length > 0 && targets.length === selectable.length}
              onChange={(ev) =>
                setSelected(
                  ev.currentTarget.checked ? new Set(selectable.map((e) => e.operationId)) : new Set(),
                )
              }
              data-testid="select-all"
            />{' '}
            select every unknown outcome shown ({selectable.length})
          </label>
        </div>
      ) : null}
      {operator ? <BulkBar targets={targets} onDone={() => setSelected(new Set())} /> : null}
      <DataTable
        columns={columns}
        rows={entries}
        rowId={(e) => `${e.operationId}/${e.reason}`}
        empty={loaded ? 'Nothing waits for review.' : 'Loading…'}
        testId="queue"
      />
      {cursor ? (
        <button type="button" onClick={() => void loadMore()}>
          Load more
        </button>
      ) : null}
    </section>
  );
}

const same = (a: QueueEntry, b: QueueEntry) => a.operationId === b.operationId && a.reason === b.reason;
