import { KILL_POINTS } from './kill-plan.js';
import type { ChaosReport } from './chaos-run.js';

/**
 * Renders a chaos run as the table `npm run demo:chaos` prints: deliveries, distinct intents,
 * kills by point, what the sweeper and the claims did with expired leases, evidence, tickets
 * created at the destination, and the verdict.
 */
export function formatChaosSummary(report: ChaosReport): string {
  const r = report;
  const o = r.options;
  const q = r.queue;
  const s = r.story;
  const kills = KILL_POINTS.map((p) => `${p} ${r.killsByPoint[p]}`).join(', ');
  const acks = Object.entries(q.acked)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ');
  const rows: [string, string, string][] = [
    [
      'deliveries',
      String(r.deliveries),
      `webhook deliveries of the plan (redeliveries by the sender included)`,
    ],
    ['distinct intents', String(r.distinctIntents), `one ticket each is the goal`],
    [
      'messages handed out',
      String(q.handedOut),
      `${q.redeliveredAfterCrash} redelivered after a kill, ${q.nacked} nacked, ${q.published['recovery-not-found']} re-queued by recovery, ${r.reconciled} by the reconciler`,
    ],
    ['acks', String(Object.values(q.acked).reduce((a, b) => a + b, 0)), acks],
    [
      'worker processes',
      String(r.fleet.spawned),
      `${o.workers} at a time, ${r.fleet.crashes.length} crashed on their own`,
    ],
    ['SIGKILLs', String(r.fleet.killed), kills],
    ['sweeper', `${s.sweeperReleases} / ${s.sweeperUnknowns}`, 'released / marked unknown (expired leases)'],
    [
      'claims after expiry',
      `${s.claimsAfterLeaseExpiry} / ${s.claimDetectedUnknowns}`,
      'took over / found a started step (before the sweeper got there)',
    ],
    ['worker-reported unknown', String(s.workerUnknowns), 'ticket call timed out (saved, answered too late)'],
    [
      'evidence',
      `${r.recovery.found} / ${r.recovery.notFound}`,
      `found → confirmed / not found → released & re-queued (${r.recovery.inconclusive} inconclusive, ${r.recovery.alreadySettled} already settled, ${s.lateConfirmations} late confirmations)`,
    ],
    [
      'tickets created at destination',
      String(r.ticketsCreated),
      `${r.destination.createRequests} create calls, ${r.destination.idempotentReplays} answered by Idempotency-Key, ${r.destination.savedThenSlow} saved then answered too late`,
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const lines = [
    `Operation Ledger chaos demo — workers SIGKILLed at random points  (seed ${o.seed}, kill rate ${o.killRate}, lease ${o.leaseMs} ms, sweep ${o.sweepIntervalMs} ms)`,
    '',
    ...rows.map(
      ([label, value, note]) => `  ${label.padEnd(width)}  ${value.padStart(valueWidth)}   ${note}`,
    ),
    '',
    `  finished in ${r.durationMs} ms`,
    '',
  ];
  const confirmed = r.checks.filter((c) => c.settled).length;
  if (r.problems.length === 0) {
    lines.push(
      `  OK: tickets created (${r.ticketsCreated}) == distinct intents (${r.distinctIntents}); ${confirmed} confirmed with the ref of their single ticket`,
    );
  } else {
    lines.push('  FAILED:', ...r.problems.map((p) => `    - ${p}`));
    for (const c of r.checks.filter((x) => !x.settled).slice(0, 10)) {
      lines.push(
        `      ${c.intent.ticket.externalRef}: ${c.operationId ?? '(no operation)'} ${c.state} ref ${c.destinationRef ?? '-'}, tickets [${c.ticketIds.join(', ')}]`,
      );
    }
    for (const crash of r.fleet.crashes.slice(0, 3)) {
      lines.push(
        `      ${crash.worker} exited ${crash.code ?? crash.signal}: ${crash.stderr.trim().slice(-300)}`,
      );
    }
  }
  return lines.join('\n');
}
