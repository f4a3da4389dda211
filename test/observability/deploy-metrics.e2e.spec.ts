// The shipped Prometheus alert rules and Grafana dashboard query only what the ledger exports: a
// real in-process ledger does claims (acquired, replayed, conflicting), an unknown outcome and a
// duplicate effect, /metrics is scraped, and every metric and label in deploy/ must exist there.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { LedgerMetrics } from '../../src/observability/prometheus/ledger-metrics.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { parseExposition, type Families } from './support/exposition.js';
import { promqlReferences, withGrafanaVariables } from './support/promql-references.js';

/** Series Prometheus itself makes for a scrape target, and the target labels it attaches. */
const PROMETHEUS_METRICS = new Set(['up']);
const TARGET_LABELS = new Set(['job', 'instance']);

const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });

let ledger: TestLedger;
let families: Families;
let declared: Map<string, Set<string>>;

async function scrape(): Promise<string> {
  const res = await fetch(`${ledger.url}/metrics`, {
    headers: { authorization: `Bearer ${ledger.rootToken}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  const c = ledger.client;
  const a = await c.claim(key('INV-1'), { total: 1 });
  expect(a.status).toBe(201);
  expect((await c.op(a.body.operationId, 'confirm', { fencingToken: 1, destinationRef: 'D-1' })).status).toBe(
    200,
  );
  expect((await c.claim(key('INV-1'), { total: 1 })).status).toBe(200); // replayed
  expect((await c.claim(key('INV-1'), { total: 2 })).status).toBe(422); // payload conflict
  const dup = await c.op(a.body.operationId, 'confirm', { fencingToken: 1, destinationRef: 'D-2' });
  expect(dup.body.code).toBe('duplicate-effect');
  const b = await c.claim(key('INV-2'), { total: 3 });
  expect((await c.op(b.body.operationId, 'unknown', { fencingToken: 1, reason: 'timed out' })).status).toBe(
    200,
  );
  await waitFor(async () => {
    const f = parseExposition(await scrape());
    const sampled = (name: string) => (f.get(name)?.samples ?? 0) > 0;
    return (
      sampled('ledger_duplicate_effects_total') &&
      sampled('ledger_review_queue_items') &&
      /ledger_review_queue_items\{[^}]*reason="unknown_outcome"[^}]*\} 1/.test(await scrape())
    );
  }, 'the read models to count the claims');
  families = parseExposition(await scrape());
  const registry = ledger.app.get(LedgerMetrics).registry;
  declared = new Map(
    (await registry.getMetricsAsJSON()).map((m) => [
      m.name,
      new Set((registry.getSingleMetric(m.name) as unknown as { labelNames?: string[] }).labelNames ?? []),
    ]),
  );
});

afterAll(() => ledger?.close());

function labelsOf(metric: string): Set<string> {
  const base = metric.replace(/_(bucket|sum|count)$/, '');
  const labels = new Set([...(families.get(metric)?.labels ?? []), ...(declared.get(base) ?? [])]);
  if (metric.endsWith('_bucket')) labels.add('le');
  return labels;
}

/** Problems of one expression: unknown metrics, labels a metric does not have. */
function problemsOf(expr: string): string[] {
  const problems: string[] = [];
  const refs = promqlReferences(expr);
  for (const s of refs.selectors) {
    if (PROMETHEUS_METRICS.has(s.metric)) continue;
    if (!families.has(s.metric)) {
      problems.push(`unknown metric ${s.metric}`);
      continue;
    }
    const labels = labelsOf(s.metric);
    for (const l of s.labels)
      if (!labels.has(l) && !TARGET_LABELS.has(l)) problems.push(`${s.metric} has no label ${l}`);
  }
  for (const g of refs.groupings) {
    const available = new Set(g.metrics.flatMap((m) => [...labelsOf(m)]));
    for (const l of g.labels)
      if (!available.has(l) && !TARGET_LABELS.has(l))
        problems.push(`grouping label ${l} is on none of ${g.metrics.join(', ')}`);
  }
  return problems;
}

interface Rule {
  alert: string;
  expr: string;
}
const rules = (): Rule[] =>
  (
    parseYaml(readFileSync('deploy/prometheus/ledger-alerts.yaml', 'utf8')) as { groups: { rules: Rule[] }[] }
  ).groups.flatMap((g) => g.rules);

function dashboardExpressions(): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync('deploy/grafana/operation-ledger-dashboard.json', 'utf8'));
  const panels = dashboard.panels.flatMap((p: any) =>
    p.targets.map((t: any) => ({
      where: `panel "${p.title}" ${t.refId}`,
      expr: withGrafanaVariables(t.expr),
    })),
  );
  const variables = dashboard.templating.list
    .filter((v: any) => v.type === 'query')
    .map((v: any) => {
      const m = /^label_values\((\w+),\s*(\w+)\)$/.exec(v.query.query);
      if (!m) throw new Error(`variable ${v.name}: only label_values(metric, label) is checked`);
      return { where: `variable ${v.name}`, expr: `${m[1]}{${m[2]}=~".+"}` };
    });
  return [...panels, ...variables];
}

describe('the checker', () => {
  it('rejects a metric the ledger does not export, a label it lacks and invalid PromQL', () => {
    expect(problemsOf('rate(ledger_claims_total[5m])')).toEqual([]);
    expect(problemsOf('rate(ledger_claimz_total[5m])')).toEqual(['unknown metric ledger_claimz_total']);
    expect(problemsOf('ledger_projection_lag_seconds{tenant="a"}')).toEqual([
      'ledger_projection_lag_seconds has no label tenant',
    ]);
    expect(problemsOf('sum by (route) (ledger_projection_lag_seconds)')).toEqual([
      'grouping label route is on none of ledger_projection_lag_seconds',
    ]);
    expect(() => problemsOf('sum by (')).toThrow('not valid PromQL');
  });
});

describe('Prometheus alert rules', () => {
  it('cover duplicate effects, stale unknown outcomes, projector lag and an unavailable store', () => {
    const names = rules().map((r) => r.alert);
    expect(names).toEqual(
      expect.arrayContaining([
        'LedgerDuplicateEffect',
        'LedgerUnknownOutcomeStale',
        'LedgerProjectorLagging',
        'LedgerEventStoreUnavailable',
        'LedgerStorageBelowRestartNeed',
      ]),
    );
    expect(rules().find((r) => r.alert === 'LedgerProjectorLagging')!.expr).toMatch(/> 30$/);
  });

  it.each(rules().map((r) => [r.alert, r.expr]))(
    '%s uses only exported metrics and labels',
    (_alert, expr) => {
      expect(problemsOf(expr)).toEqual([]);
    },
  );
});

describe('Grafana dashboard', () => {
  it('has the operator panels', () => {
    const titles = JSON.parse(
      readFileSync('deploy/grafana/operation-ledger-dashboard.json', 'utf8'),
    ).panels.map((p: { title: string }) => p.title);
    for (const wanted of [
      'Claims per second by answer',
      'Duplicates prevented per second',
      'Conflicts',
      'Unknown outcomes open and their age',
      'Duplicate effects',
      'Projector lag',
      'Append latency',
      'WrongExpectedVersion per second',
    ])
      expect(titles).toContain(wanted);
  });

  it.each(dashboardExpressions().map((e) => [e.where, e.expr]))(
    '%s uses only exported metrics and labels',
    (_w, expr) => {
      expect(problemsOf(expr)).toEqual([]);
    },
  );
});

describe('metrics the rules need', () => {
  it('label the review-queue age by tenant and reason, and report the store up once per replica', () => {
    const text = families;
    expect(text.get('ledger_review_queue_oldest_age_seconds')!.labels).toEqual(new Set(['tenant', 'reason']));
    expect(text.get('ledger_event_store_up')!.samples).toBe(1);
  });
});
