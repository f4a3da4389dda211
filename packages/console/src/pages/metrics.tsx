import { useEffect, useMemo, useState } from 'preact/hooks';
import { download, get, seg, withQuery } from '../api.js';
import type { PageProps } from '../page-props.js';
import { BarChart } from '../components/bar-chart.js';
import { ProblemView } from '../components/problem-view.js';
import { localToIso } from '../format.js';
import { subscribe } from '../sse.js';
import { autoBucket, type BucketSize } from './metrics-bucket.js';
import { loadMetrics, seriesOf, type MetricsAnswer } from './metrics-data.js';

interface Counts {
  sourceOperations: number;
  duplicateEffectOperations: number;
  duplicateEffects: number;
  byCategory: Record<string, number>;
}

interface Reconciliation {
  readonly totals: Counts;
  readonly byAction: Record<string, Counts>;
}

const CATEGORIES = [
  ['confirmed_with_ref', 'confirmed with ref'],
  ['confirmed_without_ref', 'confirmed, no ref'],
  ['unknown', 'unknown'],
  ['failed', 'failed'],
  ['failed_retryable', 'failed (retryable)'],
  ['in_progress', 'in progress'],
  ['abandoned', 'abandoned'],
  ['released', 'released'],
] as const;

/**
 * Metrics (duplicates prevented, payload conflicts, unknown outcomes opened and resolved per hour
 * or day, as charts; reloaded when the metrics feed reports a change) and the outcome report
 * (the ledger's own `…/reconciliation` summary per action — named apart from the Reconciliations
 * page, which compares with a destination's export) with the CSV export of every operation.
 */
export function MetricsPage({ tenant }: PageProps) {
  const [choice, setChoice] = useState<BucketSize | 'auto'>('auto');
  const [bucket, setBucket] = useState<BucketSize>('hour');
  const [scope, setScope] = useState({ action: '', from: '', to: '' });
  const [metrics, setMetrics] = useState<MetricsAnswer | null>(null);
  const [recon, setRecon] = useState<Reconciliation | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const query = { action: scope.action || undefined, from: localToIso(scope.from), to: localToIso(scope.to) };
  const queryKey = JSON.stringify(query);

  useEffect(() => {
    // auto: the hour buckets tell the data's span; a short one is charted per minute
    const load = async (): Promise<[MetricsAnswer, BucketSize]> => {
      if (choice !== 'auto') return [await loadMetrics(tenant, { ...query, bucket: choice }), choice];
      const byHour = await loadMetrics(tenant, { ...query, bucket: 'hour' });
      const size = autoBucket(
        query,
        byHour.buckets.map((b) => Date.parse(b.bucketStart)),
      );
      if (size === 'hour') return [byHour, size];
      const first = byHour.buckets.map((b) => b.bucketStart).sort()[0];
      const from = size === 'minute' ? (query.from ?? first) : query.from;
      return [await loadMetrics(tenant, { ...query, from, bucket: size }), size];
    };
    Promise.all([
      load(),
      get<Reconciliation>(`/v1/tenants/${seg(tenant)}/reconciliation`, { ...query, limit: 1 }),
    ]).then(([[m, size], r]) => {
      setMetrics(m);
      setBucket(size);
      setRecon(r);
      setError(null);
    }, setError);
  }, [tenant, choice, queryKey, tick]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = subscribe(`/v1/tenants/${seg(tenant)}/metrics/changes`, {
      onEvent: (e) => {
        if (e.type !== 'metrics') return;
        clearTimeout(timer);
        timer = setTimeout(() => setTick((t) => t + 1), 500);
      },
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [tenant]);

  const charts = useMemo(() => {
    const s = seriesOf(metrics?.buckets ?? [], [
      'duplicateClaimsPrevented',
      'payloadConflicts',
      'unknownOpened',
      'unknownResolved',
    ]);
    return {
      xs: s.xs,
      dup: [{ label: 'duplicates prevented', color: '#2f6fdf', values: s.values.duplicateClaimsPrevented! }],
      conflicts: [{ label: 'payload conflicts', color: '#c2410c', values: s.values.payloadConflicts! }],
      unknown: [
        { label: 'unknown opened', color: '#b91c1c', values: s.values.unknownOpened! },
        { label: 'unknown resolved', color: '#15803d', values: s.values.unknownResolved! },
      ],
    };
  }, [metrics]);

  const t = metrics?.totals ?? {};
  const step = bucket === 'minute' ? 60 : bucket === 'hour' ? 3600 : 86_400;
  return (
    <section>
      <h1>Metrics</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          setScope({
            action: String(f.get('action') ?? '').trim(),
            from: String(f.get('from') ?? ''),
            to: String(f.get('to') ?? ''),
          });
        }}
      >
        <label>
          Per
          <select
            value={choice}
            onChange={(e) => setChoice(e.currentTarget.value as BucketSize | 'auto')}
            data-testid="bucket"
          >
            <option value="auto">auto ({bucket})</option>
            <option value="minute">minute</option>
            <option value="hour">hour</option>
            <option value="day">day</option>
          </select>
        </label>
        <label>
          Action
          <input name="action" />
        </label>
        <label>
          From
          <input name="from" type="datetime-local" />
        </label>
        <label>
          To
          <input name="to" type="datetime-local" />
        </label>
        <button type="submit">Apply</button>
      </form>
      <ProblemView error={error} />
      <div class="cards" data-testid="metric-totals">
        <Card n={t.duplicateClaimsPrevented} label="duplicates prevented" />
        <Card n={t.payloadConflicts} label="payload conflicts" />
        <Card n={t.unknownOpened} label="unknown opened" />
        <Card n={t.unknownResolved} label="unknown resolved" />
        <Card n={t.duplicateEffects} label="duplicate effects" />
        <Card n={t.claims} label="claims" />
      </div>
      <div class="charts">
        <BarChart
          title={`Duplicates prevented per ${bucket}`}
          xs={charts.xs}
          series={charts.dup}
          stepS={step}
          testId="chart-duplicates"
        />
        <BarChart
          title={`Payload conflicts per ${bucket}`}
          xs={charts.xs}
          series={charts.conflicts}
          stepS={step}
        />
        <BarChart
          title={`Unknown outcomes per ${bucket}`}
          xs={charts.xs}
          series={charts.unknown}
          stepS={step}
        />
      </div>
      <div class="title-row">
        <h2 title="The ledger's outcomes of the operations first seen in the range (GET …/reconciliation) — not a comparison with a destination's export (that is the Reconciliations page)">
          Outcome report
        </h2>
        <button
          type="button"
          data-testid="csv"
          onClick={() =>
            void download(
              withQuery(`/v1/tenants/${seg(tenant)}/reconciliation`, { ...query, format: 'csv' }),
              `outcomes-${tenant}.csv`,
            ).catch(setError)
          }
        >
          Download CSV
        </button>
      </div>
      {recon ? <ReconciliationTable recon={recon} /> : null}
    </section>
  );
}

function Card({ n, label }: { n: number | undefined; label: string }) {
  return (
    <div class="card">
      <span class="n">{n ?? 0}</span>
      {label}
    </div>
  );
}

function ReconciliationTable({ recon }: { recon: Reconciliation }) {
  const rows: [string, Counts][] = [...Object.entries(recon.byAction), ['all actions', recon.totals]];
  return (
    <table class="grid" data-testid="reconciliation">
      <thead>
        <tr>
          <th>Action</th>
          <th>Source operations</th>
          {CATEGORIES.map(([c, label]) => (
            <th key={c}>{label}</th>
          ))}
          <th>Duplicate effects</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([action, c]) => (
          <tr key={action} class={action === 'all actions' ? 'total' : ''}>
            <td>{action}</td>
            <td>{c.sourceOperations}</td>
            {CATEGORIES.map(([k]) => (
              <td key={k}>{c.byCategory[k] ?? 0}</td>
            ))}
            <td>{c.duplicateEffects}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
