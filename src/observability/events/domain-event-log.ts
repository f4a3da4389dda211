/** The part of a pino (or compatible) logger the domain-event log uses. */
export interface EventLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/** A domain event as appended or recorded: its type and data (`EventBase` fields at least). */
export interface LoggableEvent {
  readonly type: string;
  readonly data: object;
}

/** Who caused the event, for the log line. */
export interface EventLogContext {
  /** The request's correlation id (also in the event's metadata). */
  readonly correlationId?: string;
  /** Trace id of the request's `traceparent`, when it had one. */
  readonly traceId?: string | null;
  /** Id of the API key that made the request. */
  readonly keyId?: string;
  /** A background job instead of a request: `sweeper`, `retention`, … */
  readonly job?: string;
}

interface Notable {
  readonly level: 'debug' | 'info' | 'warn';
  readonly message: string;
  /** Problem code of the answer the event stands for (docs/api.md "Problem codes"), if any. */
  readonly problemCode?: string;
  /** Extra fields of the event's data worth a line (never payloads). */
  readonly fields?: readonly string[];
}

/**
 * The domain events worth one line each, and what the line says (docs/observability.md "Logs").
 * Frequent events (steps, lease renewals, refused duplicates) are counted in the metrics instead.
 */
const NOTABLE: Record<string, (d: Record<string, unknown>) => Notable | null> = {
  OperationClaimed: (d) => ({
    level: d.reason === 'first' ? 'debug' : 'info',
    message: 'claim acquired',
    fields: ['reason', 'workerId', 'leaseMs'],
  }),
  OutcomeUnknown: (d) => ({
    level: 'info',
    message:
      d.reason === 'lease_expired' ? 'lease expired mid-effect: outcome unknown' : 'outcome unknown opened',
    problemCode: 'outcome-uncertain',
    fields: ['reason', 'unfinishedSteps'],
  }),
  DuplicateEffectDetected: () => ({
    level: 'warn',
    message: 'duplicate effect detected',
    problemCode: 'duplicate-effect',
    fields: ['recordedRef', 'incomingRef', 'reportedByAttempt'],
  }),
  PayloadConflictDetected: () => ({
    level: 'info',
    message: 'payload conflict refused',
    problemCode: 'payload-conflict',
    fields: ['existingFingerprint', 'incomingFingerprint', 'workerId'],
  }),
  OperationResolved: () => ({
    level: 'info',
    message: 'unknown outcome resolved by an operator',
    fields: ['resolution', 'destinationRef', 'actor'],
  }),
  RecoveryEvidenceSubmitted: (d) => ({
    level: 'info',
    message:
      d.verdict === 'inconclusive'
        ? 'recovery evidence inconclusive'
        : 'unknown outcome resolved by evidence',
    fields: ['verdict', 'destinationRef', 'actor'],
  }),
  OperationConfirmed: (d) =>
    d.source === 'late_confirmation'
      ? {
          level: 'info',
          message: 'late confirmation accepted as evidence',
          fields: ['destinationRef', 'reportedByAttempt'],
        }
      : null,
  OperationReleased: (d) =>
    d.releasedBy === 'sweeper'
      ? { level: 'info', message: 'lease sweeper released an expired lease', fields: ['reason'] }
      : null,
  DuplicateEffectAcknowledged: () => ({
    level: 'info',
    message: 'duplicate effect acknowledged',
    fields: ['actor'],
  }),
  OperationArchived: () => ({
    level: 'info',
    message: 'operation archived by retention',
    fields: ['afterRetention'],
  }),
};

/**
 * Writes one line for `event` if it is notable; returns whether it wrote. Payloads, outputs and
 * evidence are never logged. Call it once an append succeeded, per event.
 */
export function logDomainEvent(
  logger: EventLogger,
  event: LoggableEvent,
  ctx: EventLogContext = {},
): boolean {
  const d = event.data as Record<string, unknown>;
  const notable = NOTABLE[event.type]?.(d);
  if (!notable) return false;
  const key = d.key as { action?: unknown } | undefined;
  const line: Record<string, unknown> = {
    event: event.type,
    tenant: d.tenant,
    action: typeof key?.action === 'string' ? key.action : undefined,
    operationId: d.operationId,
    attempt: d.attempt,
    ...(notable.problemCode ? { problemCode: notable.problemCode } : {}),
    ...(ctx.correlationId ? { correlationId: ctx.correlationId } : {}),
    ...(ctx.traceId ? { traceId: ctx.traceId } : {}),
    ...(ctx.keyId ? { keyId: ctx.keyId } : {}),
    ...(ctx.job ? { job: ctx.job } : {}),
  };
  for (const field of notable.fields ?? []) if (d[field] !== undefined) line[field] = d[field];
  logger[notable.level](line, notable.message);
  return true;
}

/** A projector instance taking over a read model's processing (the lock changed hands). */
export interface ProjectorTakeover {
  readonly readModel: string;
  /** The instance that now projects. */
  readonly instanceId: string;
  /** The global position it resumes after (its checkpoint). */
  readonly checkpoint: bigint | string;
}

/** One info line `"projector takeover"`, when the read model's lock changed hands. */
export function logProjectorTakeover(logger: EventLogger, takeover: ProjectorTakeover): void {
  logger.info(
    {
      event: 'ProjectorTakeover',
      readModel: takeover.readModel,
      instanceId: takeover.instanceId,
      checkpoint: String(takeover.checkpoint),
    },
    'projector takeover',
  );
}
