import type { DemoReport } from './demo-run.js';

/**
 * Renders a run as the summary table `npm run demo` prints: deliveries, distinct intents, tickets
 * created at the destination, duplicates prevented, conflicts, unknown → resolved, and the verdict.
 */
export function formatSummary(report: DemoReport): string {
  const r = report;
  const o = r.options;
  const resolvedConfirmed = r.recovery.resolutions.filter((x) => x.resolution === 'confirmed').length;
  const resolvedNotFound = r.recovery.resolutions.filter((x) => x.resolution === 'not_found').length;
  const rows: [string, string, string][] = [
    ['deliveries', String(r.deliveries), `${r.concurrentBursts} concurrent bursts, ${o.concurrency} workers`],
    ['distinct intents', String(r.distinctIntents), `from ${r.examples.read} GitHub example payloads`],
    [
      'tickets created at destination',
      String(r.ticketsCreated),
      `${r.destination.createRequests} create calls`,
    ],
    [
      'duplicates prevented',
      String(r.duplicatesPrevented),
      `${r.replayed} replayed, ${r.awaitingRecovery} awaiting recovery, ${r.inProgressAnswers} in-progress waits`,
    ],
    [
      'conflicts',
      `${r.conflictsDetected} / ${r.conflictsInjected}`,
      `detected / injected (${r.conflictAnswers} × 422)`,
    ],
    [
      'unknown → resolved',
      `${r.unknownReported} → ${r.recovery.resolutions.length}`,
      `${resolvedConfirmed} found & confirmed, ${resolvedNotFound} not found & re-run, ${r.recovery.stillUnknown.length} still unknown`,
    ],
    [
      'destination faults',
      String(r.destination.savedThenSlow + r.destination.lost),
      `${r.destination.savedThenSlow} saved-then-timed-out, ${r.destination.lost} lost`,
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const lines = [
    `Operation Ledger demo — GitHub webhooks → tickets  (seed ${o.seed}, fault rate ${o.faultRate}, lost rate ${o.lostRate})`,
    '',
    ...rows.map(
      ([label, value, note]) => `  ${label.padEnd(width)}  ${value.padStart(valueWidth)}   ${note}`,
    ),
    '',
  ];
  if (r.examples.skippedVariants > 0 || r.examples.repeated > 0) {
    lines.push(
      `  (examples: ${r.examples.repeated} repeated an intent verbatim, ${r.examples.skippedVariants} variant(s) of an intent skipped, ${r.examples.unmapped} unmapped)`,
    );
  }
  if (r.sampleHistoryUrl) lines.push(`  history of an unknown → resolved operation: ${r.sampleHistoryUrl}`);
  lines.push(`  finished in ${r.durationMs} ms`, '');
  if (r.problems.length === 0) {
    lines.push(`  OK: tickets created (${r.ticketsCreated}) == distinct intents (${r.distinctIntents})`);
  } else {
    lines.push(
      '  FAILED:',
      ...r.problems.map((p) => `    - ${p}`),
      ...r.unsettled.slice(0, 10).map((u) => `      ${u}`),
    );
  }
  return lines.join('\n');
}

/** One line per event of an operation's history: position, type, and the fields that tell the story. */
export function formatHistory(history: {
  readonly operationId: string;
  readonly events: readonly { readonly type: string; readonly data: Record<string, unknown> }[];
}): string {
  const detail = (data: Record<string, unknown>) =>
    ['attempt', 'step', 'reason', 'resolution', 'destinationRef', 'actor', 'answer']
      .filter((field) => data[field] !== undefined && data[field] !== null)
      .map((field) => `${field}=${JSON.stringify(data[field])}`)
      .join(' ');
  return [
    `  events of operation ${history.operationId}:`,
    ...history.events.map(
      (e, i) => `    ${String(i + 1).padStart(2)}. ${e.type.padEnd(24)} ${detail(e.data)}`,
    ),
  ].join('\n');
}
