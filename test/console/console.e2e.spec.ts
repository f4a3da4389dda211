// The operator console in real Chromium (Debian's package, driven by playwright-core) against a
// real in-process ledger: sign in, watch an unknown outcome arrive live (also after the feed
// connection drops), open its timeline, time-travel, be refused, resolve it with a reason and see
// it leave the queue; a conflict's field diff; operations list and key search; metrics and the
// CSV export; reconciliation runs with their totals and items CSV; an auditor sees no action
// buttons. Screenshots of each page go to test-output/console/.
import { readFileSync } from 'node:fs';
import { operationIdOf, RECONCILIATION_CATEGORIES } from '@operation-ledger/client';
import type { Browser } from 'playwright-core';
import { ChangeHub } from '../../src/projections/subscriptions/change-hub.js';
import { startTestLedger, type TestKey, type TestLedger } from '../support/test-ledger.js';
import { launchChromium } from './support/browser.js';
import { buildConsole } from './support/build-console.js';
import { openConsole, writeMeasurement, type ConsoleTab } from './support/console-page.js';

const T = 'acme';
const key = (subject: string, action = 'invoice.create') => ({ tenant: T, source: 'shop', action, subject });
const WAIT = { timeout: 10_000 };

let ledger: TestLedger;
let browser: Browser;
let worker: TestKey;
let operator: TestKey;
let auditor: TestKey;

beforeAll(async () => {
  // Chromium starts while the console builds and the ledger starts; the ledger looks for the build
  // when it starts (src/console/console-directory.ts), so it starts after the build. Settled, not
  // Promise.all: when one fails, afterAll still closes the other.
  const started = await Promise.allSettled([
    launchChromium().then((b) => (browser = b)),
    buildConsole().then(async () => (ledger = await startTestLedger('postgres'))),
  ]);
  for (const s of started) if (s.status === 'rejected') throw s.reason;
  [worker, operator, auditor] = await Promise.all([
    ledger.createKey({ tenant: T, roles: ['worker'], name: 'invoice-sync' }),
    ledger.createKey({ tenant: T, roles: ['operator', 'auditor'], name: 'ops:maria' }),
    ledger.createKey({ tenant: T, roles: ['auditor'], name: 'audit:olaf' }),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ledger?.close();
});

/** A worker claims `subject`, starts its step, and reports the outcome unknown (a timeout). */
async function reportUnknown(subject: string): Promise<string> {
  const claim = await worker.client.claim(
    key(subject),
    { customer: 'c-17', total: '120.00' },
    { workerId: 'w-1' },
  );
  expect(claim.status).toBe(201);
  const id = claim.body.operationId as string;
  const fencingToken = claim.body.fencingToken as number;
  expect((await worker.client.op(id, 'steps/create-invoice/start', { fencingToken })).status).toBe(200);
  expect((await worker.client.op(id, 'unknown', { fencingToken, reason: 'timeout after 10 s' })).status).toBe(
    200,
  );
  return id;
}

const queueRow = (tab: ConsoleTab, subject: string) =>
  tab.page.getByTestId('queue').locator('tr', { hasText: `${subject}@1` });

describe('operator console in Chromium', () => {
  it('serves /console with a strict Content-Security-Policy and renders the queue', async () => {
    const res = await fetch(`${ledger.url}/console/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect((await fetch(`${ledger.url}/console/no-such-file.js`)).status).toBe(404);
    const me = await auditor.client.get('/v1/me');
    expect(me.body).toEqual({ keyId: auditor.key.id, name: 'audit:olaf', tenant: T, roles: ['auditor'] });
    expect((await auditor.client.as(undefined).get('/v1/me')).status).toBe(401);

    const tab = await openConsole(browser, ledger.url, operator.token);
    await tab.page.getByText('Nothing waits for review.').waitFor(WAIT);
    // A reload keeps the key (sessionStorage): measure navigation start → queue rendered (reported, not asserted).
    await tab.page.reload();
    await tab.page.getByText('Nothing waits for review.').waitFor(WAIT);
    const render = await tab.page.evaluate(() => {
      // Browser globals (the test's own type-check has no DOM library).
      const perf = (globalThis as any).performance;
      const nav = perf.getEntriesByType('navigation')[0];
      const queue = perf.getEntriesByName('queue-rendered')[0];
      return {
        domContentLoadedMs: nav.domContentLoadedEventEnd as number,
        queueRenderedMs: (queue?.startTime ?? null) as number | null,
      };
    });
    writeMeasurement('first-render', render);
    expect(render.queueRenderedMs).not.toBeNull();
    expect(await tab.page.getByTestId('who').textContent()).toContain('ops:maria');
    expect(tab.errors).toEqual([]);
    await tab.close();
  });

  it('shows an unknown outcome live, resumes after a dropped feed, and resolves it with a reason', async () => {
    const tab = await openConsole(browser, ledger.url, operator.token);
    const { page } = tab;
    await page.getByTestId('feed-status').getByText('live').waitFor(WAIT);

    const first = await reportUnknown('order:812');
    await queueRow(tab, 'order:812').waitFor(WAIT);
    await page.getByTestId('count-unknown_outcome').getByText('1').waitFor(WAIT);

    // The feed connection drops; the console reconnects with Last-Event-ID and misses nothing.
    // The page's clock, faked from here on, skips the reconnection delay (the ledger's `retry: 2000`)
    // instead of the test sleeping through it; it runs on in real time otherwise.
    await page.clock.install();
    ledger.app.get(ChangeHub).closeAll();
    const second = await reportUnknown('order:813');
    const resumed = page.getByTestId('feed-status').getByText('resumed after');
    for (const deadline = Date.now() + WAIT.timeout; !(await resumed.isVisible()) && Date.now() < deadline;)
      await page.clock.fastForward(500);
    await queueRow(tab, 'order:813').waitFor(WAIT);
    await resumed.waitFor(WAIT);
    expect(tab.feedRequests.length).toBeGreaterThanOrEqual(2);
    expect(tab.feedRequests.at(-1)!['last-event-id']).toMatch(/^\d+$/);
    expect(tab.feedRequests.every((h) => h.authorization?.startsWith('Bearer olk_'))).toBe(true);
    expect(tab.feedRequests.every((h) => !JSON.stringify(h).includes('token='))).toBe(true);
    // Why it is unknown: the true label and the worker's own text, on the queue row.
    const why = queueRow(tab, 'order:812').getByTestId('unknown-why');
    expect(await why.getByTestId('unknown-cause').textContent()).toBe('reported_by_worker');
    expect(await why.textContent()).toContain('timeout after 10 s');
    await tab.screenshot('review-queue');

    // The timeline of the first one.
    await queueRow(tab, 'order:812').getByTestId('queue-link').click();
    await page.getByTestId('state').getByText('unknown').waitFor(WAIT);
    const events = await page.getByTestId('timeline-event').allTextContents();
    expect(events).toEqual(['OperationClaimed', 'StepStarted', 'OutcomeUnknown']);
    expect(await page.getByTestId('timeline').textContent()).toContain('timeout after 10 s');
    await page.getByText('create-invoice').first().waitFor();
    // Who: the key's name and the worker id on every worker event; revisions, not global positions.
    const timelineRows = page.getByTestId('timeline').locator('tbody tr');
    const who = await timelineRows.locator('td:nth-child(5)').allTextContents();
    expect(who).toEqual(['invoice-sync (w-1)', 'invoice-sync (w-1)', 'invoice-sync (w-1)']);
    expect(await timelineRows.locator('td:nth-child(1)').allTextContents()).toEqual(['0', '1', '2']);
    // The payload that was intended, with its fingerprint; only the actions an unknown allows,
    // and no resolution chosen in advance.
    expect(JSON.parse((await page.getByTestId('payload').textContent())!)).toEqual({
      customer: 'c-17',
      total: '120.00',
    });
    expect(await page.getByTestId('fingerprint').textContent()).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.getByTestId('outcome').getByTestId('unknown-cause').textContent()).toBe(
      'reported_by_worker',
    );
    const offered = await page
      .locator('[data-testid^="action-"]:not([data-testid^="action-f"])')
      .allTextContents();
    expect(offered).toEqual(['Resolve', 'Submit evidence']);
    expect(await page.locator('select[name="resolution"]').inputValue()).toBe('');

    // Time travel to revision 0: the state right after the claim.
    await page.getByTestId('revision-slider').fill('0');
    await page.getByTestId('state').getByText('in_progress').waitFor(WAIT);
    await page.getByRole('button', { name: 'Back to now' }).click();
    await page.getByTestId('state').getByText('unknown').waitFor(WAIT);

    // A refused action shows the ledger's problem detail and records nothing.
    await page.getByTestId('action-evidence').click();
    await page.locator('select[name="verdict"]').selectOption('found');
    await page.locator('textarea[name="checkedFields"]').fill('not json');
    await page.getByTestId('reason').fill('looked it up');
    await page.getByTestId('submit-action').click();
    await page.getByTestId('problem').getByText('checkedFields').first().waitFor(WAIT);
    expect((await ledger.client.history(first)).body.events).toHaveLength(3);

    // Resolve not_found with a reason: recorded in the stream with the key's holder as actor.
    await page.getByTestId('action-resolve').click();
    await page.locator('select[name="resolution"]').selectOption('not_found');
    await page.getByTestId('reason').fill('no invoice INV for order 812 in billing');
    await page.getByTestId('submit-action').click();
    await page.getByTestId('action-result').getByText('OperationResolved').waitFor(WAIT);
    await page.getByTestId('state').getByText('released').waitFor(WAIT);
    await tab.screenshot('operation');
    const resolved = (await ledger.client.history(first)).body.events.at(-1);
    expect(resolved).toMatchObject({
      type: 'OperationResolved',
      data: {
        resolution: 'not_found',
        actor: 'ops:maria',
        reason: 'no invoice INV for order 812 in billing',
      },
    });

    // Back on the queue it is gone; the other one leaves live when it is resolved elsewhere.
    await page.getByRole('link', { name: 'Review queue' }).click();
    await queueRow(tab, 'order:813').waitFor(WAIT);
    expect(await queueRow(tab, 'order:812').count()).toBe(0);
    const other = await operator.client.op(second, 'resolve', {
      resolution: 'abandoned',
      reason: 'customer cancelled',
    });
    expect(other.status).toBe(200);
    await page.getByText('Nothing waits for review.').waitFor(WAIT);
    expect(tab.errors).toEqual([]);
    await tab.close();
  });

  it('groups a duplicate storm in the timeline, with a decisions-only view and durations', async () => {
    const claim = await worker.client.claim(
      key('order:777'),
      { customer: 'c-9', total: '9.00' },
      { workerId: 'w-1' },
    );
    const id = claim.body.operationId as string;
    const fencingToken = claim.body.fencingToken as number;
    for (let i = 0; i < 19; i++)
      expect((await worker.client.claim(key('order:777'), { customer: 'c-9', total: '9.00' })).status).toBe(
        409,
      );
    await worker.client.op(id, 'steps/create-invoice/start', { fencingToken });
    await worker.client.op(id, 'steps/create-invoice/complete', { fencingToken });
    await worker.client.op(id, 'confirm', { fencingToken, destinationRef: 'INV-777' });
    // the audit records of the duplicates may land after their answers (and a record may stand
    // for several, `count`): wait until they account for all 19
    const duplicates = async () => {
      const events = (await ledger.client.history(id)).body.events as {
        type: string;
        data: { count?: number };
      }[];
      const counted = events
        .filter((e) => e.type === 'DuplicateClaimPrevented')
        .reduce((n, e) => n + (e.data.count ?? 1), 0);
      return { counted, records: events.length };
    };
    for (const deadline = Date.now() + 10_000; (await duplicates()).counted < 19 && Date.now() < deadline;)
      await new Promise((done) => setTimeout(done, 50));
    const { counted, records } = await duplicates();
    expect(counted).toBe(19);

    const tab = await openConsole(browser, ledger.url, operator.token);
    const { page } = tab;
    await page.goto(`${ledger.url}/console/#/operations/${id}`);
    await page.getByTestId('state').getByText('confirmed').waitFor(WAIT);
    const rows = page.getByTestId('timeline').locator('tbody tr');
    expect(await page.getByTestId('timeline-event').allTextContents()).toEqual([
      'OperationClaimed',
      'DuplicateClaimPrevented ×19',
      'StepStarted',
      'StepCompleted',
      'OperationConfirmed',
    ]);
    expect(await rows.nth(1).textContent()).toMatch(/first .*last /);
    // claim → step start → step end → outcome, each with the time since the previous decision
    const took = await page.getByTestId('duration').allTextContents();
    expect(took[0]).toBe('');
    expect(took.slice(2).every((t) => /^\+\d/.test(t))).toBe(true);
    await tab.screenshot('timeline-compact');
    await page.getByTestId('view-decisions').click();
    await rows.filter({ hasText: 'DuplicateClaimPrevented' }).waitFor({ ...WAIT, state: 'detached' });
    expect(await rows.count()).toBe(4);
    await page.getByTestId('view-full').click();
    await rows.nth(records - 1).waitFor(WAIT);
    expect(await rows.count()).toBe(records);
    // a confirmed operation offers no action that cannot apply
    await page.getByTestId('no-actions').waitFor(WAIT);
    expect(tab.errors).toEqual([]);
    await tab.close();
  });

  it("shows a payload conflict's field diff", async () => {
    const subject = 'order:900';
    const claim = await worker.client.claim(key(subject), {
      customer: 'c-17',
      total: '120.00',
      lines: [1, 2],
    });
    expect(claim.status).toBe(201);
    const conflict = await worker.client.claim(
      key(subject),
      { customer: 'c-17', total: '125.00', lines: [1], note: 'rush' },
      { workerId: 'w-2' },
    );
    expect(conflict.status).toBe(422);

    const tab = await openConsole(browser, ledger.url, operator.token);
    await tab.page.getByRole('link', { name: 'Conflicts' }).click();
    const card = tab.page.getByTestId('conflict').filter({ hasText: `${subject}@1` });
    await card.waitFor(WAIT);
    const rows = await card.getByTestId('diff').locator('tbody tr').allTextContents();
    expect(rows).toEqual([
      '/lines/1removed2(absent)',
      '/noteadded(absent)"rush"',
      '/totalchanged"120.00""125.00"',
    ]);
    expect(await card.textContent()).toContain('worker w-2');
    await tab.screenshot('conflicts');
    await tab.close();
  });

  it('lists operations with filters, pages by cursor and finds one by key', async () => {
    const tab = await openConsole(browser, ledger.url, operator.token);
    const { page } = tab;
    await page.getByRole('link', { name: 'Operations' }).click();
    const table = page.getByTestId('operations');
    await table.getByText('order:900@1').waitFor(WAIT);
    await page.getByTestId('operation-filters').locator('select[name="state"]').selectOption('released');
    await page.getByTestId('operation-filters').getByRole('button', { name: 'Filter' }).click();
    // the unfiltered list holds order:812@1 too: wait for the filter to take order:900@1 away
    await table.locator('tbody tr', { hasText: 'order:900@1' }).waitFor({ ...WAIT, state: 'detached' });
    await table.locator('tbody tr', { hasText: 'order:812@1' }).waitFor(WAIT);
    expect(await table.locator('tbody tr').count()).toBe(1);

    await page.locator('select:has(option[value="25"])').selectOption('25');
    const search = page.getByTestId('key-search');
    await search.getByLabel('Source').fill('shop');
    await search.getByLabel('Action').fill('invoice.create');
    await search.getByLabel('Subject').fill('order:813');
    await search.getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('state').getByText('abandoned').waitFor(WAIT);
    const id = (await ledger.client.claim(key('order:813'), { customer: 'c-17', total: '120.00' })).body
      .operationId;
    expect(page.url()).toContain(`#/operations/${id}`);
    await page.getByRole('link', { name: 'Operations' }).click();
    await table.getByText('order:900@1').waitFor(WAIT);
    await tab.screenshot('operations');
    await tab.close();
  });

  it('charts the metrics and downloads the reconciliation CSV', async () => {
    const tab = await openConsole(browser, ledger.url, operator.token);
    const { page } = tab;
    await page.getByRole('link', { name: 'Metrics' }).click();
    const recon = page.getByTestId('reconciliation');
    await recon.locator('tr.total').waitFor(WAIT);
    const totals = await page.getByTestId('metric-totals').textContent();
    expect(totals).toContain('1payload conflicts');
    expect(totals).toContain('2unknown opened');
    expect(await page.locator('.chart canvas').count()).toBe(3);
    // everything happened within minutes: charted per minute, not as one hour bar
    await page
      .getByTestId('bucket')
      .locator('option[value="auto"]')
      .getByText('auto (minute)')
      .waitFor({
        ...WAIT,
        state: 'attached',
      });
    expect(await page.getByText('Outcome report').count()).toBe(1);
    const download = page.waitForEvent('download');
    await page.getByTestId('csv').click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    const lines = csv.trim().split('\n');
    expect(lines).toHaveLength(5); // header + order:812, order:813, order:900, order:777 (the storm)
    expect(csv).toContain('order:900');
    await tab.screenshot('metrics');
    expect(tab.errors).toEqual([]);
    await tab.close();
  });

  it('lists the reconciliation runs with their totals per category and downloads their items', async () => {
    const order900 = operationIdOf(key('order:900')); // claimed by the conflict test, never confirmed
    const upload = await fetch(`${ledger.url}/v1/tenants/${T}/reconciliations?action=invoice.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'text/csv' },
      body: `id,reference\nINV-900,${order900}\nINV-77,\n`,
    });
    expect(upload.status).toBe(202);
    const id = ((await upload.json()) as { id: string }).id;
    let run: any;
    for (const deadline = Date.now() + 30_000; run?.status !== 'completed' && Date.now() < deadline;) {
      await new Promise((done) => setTimeout(done, 100));
      run = (await operator.client.get(`/v1/tenants/${T}/reconciliations/${id}`)).body;
    }
    expect(run.totals.byCategory).toMatchObject({ unconfirmed_found: 1, orphan: 1 });

    const tab = await openConsole(browser, ledger.url, auditor.token); // auditors read runs too
    await tab.page.getByRole('link', { name: 'Reconciliations' }).click();
    const row = tab.page.getByTestId('reconciliations').locator(`tr[data-row-id="${id}"]`);
    await row.getByText('completed').waitFor(WAIT);
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(5, 14)).toEqual(
      RECONCILIATION_CATEGORIES.map((c) => String(run.totals.byCategory[c])),
    );
    const download = tab.page.waitForEvent('download');
    await row.getByTestId('run-csv').click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv.trim().split('\r\n')).toHaveLength(1 + run.totals.items);
    expect(csv).toMatch(/,orphan,.*INV-77/);
    await tab.screenshot('reconciliations');
    expect(tab.errors).toEqual([]);
    await tab.close();
  });

  it('shows an auditor no action buttons', async () => {
    const tab = await openConsole(browser, ledger.url, auditor.token);
    const { page } = tab;
    expect(await page.getByTestId('who').textContent()).toContain('auditor');
    const id = (await ledger.client.claim(key('order:813'), { customer: 'c-17', total: '120.00' })).body
      .operationId;
    await page.goto(`${ledger.url}/console/#/operations/${id}`);
    await page.getByTestId('timeline').waitFor(WAIT);
    expect(await page.getByTestId('actions').count()).toBe(0);
    expect(await page.locator('[data-testid^="action-"]').count()).toBe(0);
    await tab.screenshot('operation-auditor');
    await tab.close();
  });
  it('resolves 3 selected unknown outcomes in bulk with one reason, showing each result; finds them by subject prefix', async () => {
    const ids = [await reportUnknown('bulk:1'), await reportUnknown('bulk:2'), await reportUnknown('bulk:3')];
    // a second effect at the destination: badged in the operations list
    const dup = await worker.client.claim(key('dup:1'), { customer: 'c-1', total: '1.00' });
    const dupToken = dup.body.fencingToken as number;
    const dupId = dup.body.operationId as string;
    await worker.client.op(dupId, 'confirm', { fencingToken: dupToken, destinationRef: 'INV-D1' });
    expect(
      (await worker.client.op(dupId, 'confirm', { fencingToken: dupToken, destinationRef: 'INV-D2' })).status,
    ).toBe(409);

    const tab = await openConsole(browser, ledger.url, operator.token);
    const { page } = tab;
    for (const n of [1, 2, 3]) await queueRow(tab, `bulk:${n}`).getByTestId('select').check();
    await page.getByTestId('bulk-selected').getByText('3 selected').waitFor(WAIT);
    await page.getByTestId('bulk-action').selectOption('resolve-not_found');
    await page.getByTestId('bulk-reason').fill('INC-42: billing has none of these');
    await page.getByTestId('bulk-preview').click();
    expect(await page.getByTestId('bulk-count').textContent()).toBe('3');
    // resolved elsewhere between the preview and the run: that one is refused, the others go on
    expect(
      (await operator.client.op(ids[1]!, 'resolve', { resolution: 'abandoned', reason: 'by hand' })).status,
    ).toBe(200);
    await page.getByTestId('bulk-run').click();
    const results = page.getByTestId('bulk-result');
    await results.nth(2).waitFor(WAIT);
    const rows = await page
      .getByTestId('bulk-results')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr: any) => [tr.cells[0].textContent, tr.cells[1].textContent]));
    expect(Object.fromEntries(rows)).toEqual({
      'shop · invoice.create · bulk:1@1': 'ok → released',
      'shop · invoice.create · bulk:2@1': 'refused: 409 not-unknown',
      'shop · invoice.create · bulk:3@1': 'ok → released',
    });
    await tab.screenshot('bulk-resolve');
    for (const id of [ids[0]!, ids[2]!]) {
      const last = (await ledger.client.history(id)).body.events.at(-1);
      expect(last).toMatchObject({
        type: 'OperationResolved',
        data: { resolution: 'not_found', reason: 'INC-42: billing has none of these', actor: 'ops:maria' },
      });
    }

    // one search box: a subject prefix filters the list
    await page.getByRole('link', { name: 'Operations' }).click();
    const table = page.getByTestId('operations');
    await table.getByText('dup:1@1').waitFor(WAIT);
    const badge = table.locator('tbody tr', { hasText: 'dup:1@1' }).getByTestId('duplicate-badge');
    expect(await badge.textContent()).toContain('duplicate effect');
    expect(await table.getByTestId('duplicate-badge').count()).toBe(1); // order:777 confirmed once: no badge
    await page.getByTestId('search').getByLabel('Search').fill('bulk:');
    await page.getByTestId('search').getByRole('button', { name: 'Search' }).click();
    await table.locator('tbody tr', { hasText: 'dup:1@1' }).waitFor({ ...WAIT, state: 'detached' });
    const subjects = await table.locator('tbody tr td:first-child').allTextContents();
    expect(subjects.sort()).toEqual([
      'shop · invoice.create · bulk:1@1',
      'shop · invoice.create · bulk:2@1',
      'shop · invoice.create · bulk:3@1',
    ]);
    // a key opens the operation
    await page.getByTestId('search').getByLabel('Search').fill('shop/invoice.create/bulk:2');
    await page.getByTestId('search').getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('state').getByText('abandoned').waitFor(WAIT);
    expect(page.url()).toContain(`#/operations/${ids[1]}`);
    expect(tab.errors).toEqual([]);
    await tab.close();
  });
});
