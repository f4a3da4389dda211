/** Feed of new payload conflicts. */
export const CONFLICTS_FEED = 'conflicts';

/** A conflict row as the API and the feed show it. */
export function presentConflictRow(row: Record<string, unknown>) {
  return {
    eventId: row.event_id,
    position: String(row.position),
    operationId: row.operation_id,
    key: {
      tenant: row.tenant,
      source: row.source,
      action: row.action,
      subject: row.subject,
      revision: Number(row.revision),
    },
    attempt: Number(row.attempt),
    at: row.at instanceof Date ? row.at.toISOString() : new Date(String(row.at)).toISOString(),
    workerId: row.worker_id ?? null,
    existingFingerprint: row.existing_fingerprint,
    incomingFingerprint: row.incoming_fingerprint,
    diff: row.diff ?? null,
    diffTruncated: row.diff_truncated === true,
  };
}
