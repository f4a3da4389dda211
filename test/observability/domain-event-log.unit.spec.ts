import { logDomainEvent, logProjectorTakeover } from '../../src/observability/index.js';

function recorder() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    logger: {
      info: (fields: object, message: string) =>
        lines.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
      warn: (fields: object, message: string) =>
        lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
      debug: (fields: object, message: string) =>
        lines.push({ level: 'debug', fields: fields as Record<string, unknown>, message }),
    },
  };
}

const base = {
  operationId: 'e8b5c0de-0000-5000-8000-000000000001',
  key: { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'INV-1', revision: 1 },
  tenant: 'acme',
  attempt: 2,
  at: '2026-01-01T00:00:00.000Z',
};

describe('logDomainEvent', () => {
  it('writes a first claim acquired line at debug with tenant, operation, attempt and correlation, never the payload', () => {
    const { logger, lines } = recorder();
    const event = {
      type: 'OperationClaimed',
      data: { ...base, payload: { card: '4111' }, reason: 'first', workerId: 'w1', leaseMs: 30000 },
    };
    expect(
      logDomainEvent(logger, event, { correlationId: 'job-1', traceId: 'ab'.repeat(16), keyId: 'k1' }),
    ).toBe(true);
    expect(lines).toEqual([
      {
        level: 'debug',
        message: 'claim acquired',
        fields: {
          event: 'OperationClaimed',
          tenant: 'acme',
          action: 'invoice.create',
          operationId: base.operationId,
          attempt: 2,
          correlationId: 'job-1',
          traceId: 'ab'.repeat(16),
          keyId: 'k1',
          reason: 'first',
          workerId: 'w1',
          leaseMs: 30000,
        },
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('4111');
  });

  it('writes a re-attempt (any claim but the first) at info', () => {
    const { logger, lines } = recorder();
    for (const reason of ['after_retryable_failure', 'after_release', 'after_lease_expiry', 'after_approval'])
      logDomainEvent(logger, {
        type: 'OperationClaimed',
        data: { ...base, reason, workerId: 'w1', leaseMs: 1 },
      });
    expect(lines.map((l) => [l.level, l.message, l.fields.reason])).toEqual([
      ['info', 'claim acquired', 'after_retryable_failure'],
      ['info', 'claim acquired', 'after_release'],
      ['info', 'claim acquired', 'after_lease_expiry'],
      ['info', 'claim acquired', 'after_approval'],
    ]);
  });

  it('warns on a duplicate effect with its problem code, and names the sweeper job', () => {
    const { logger, lines } = recorder();
    logDomainEvent(logger, {
      type: 'DuplicateEffectDetected',
      data: { ...base, recordedRef: 'D-1', incomingRef: 'D-2', reportedByAttempt: 1 },
    });
    logDomainEvent(
      logger,
      {
        type: 'OutcomeUnknown',
        data: { ...base, reason: 'lease_expired', detail: null, unfinishedSteps: ['s'] },
      },
      { job: 'sweeper' },
    );
    expect(lines[0]).toMatchObject({
      level: 'warn',
      message: 'duplicate effect detected',
      fields: { problemCode: 'duplicate-effect', incomingRef: 'D-2' },
    });
    expect(lines[1]).toMatchObject({
      level: 'info',
      fields: { problemCode: 'outcome-uncertain', job: 'sweeper', reason: 'lease_expired' },
    });
  });

  it('stays silent for routine events', () => {
    const { logger, lines } = recorder();
    expect(logDomainEvent(logger, { type: 'LeaseRenewed', data: base })).toBe(false);
    expect(logDomainEvent(logger, { type: 'OperationConfirmed', data: { ...base, source: 'worker' } })).toBe(
      false,
    );
    expect(
      logDomainEvent(logger, { type: 'OperationReleased', data: { ...base, releasedBy: 'worker' } }),
    ).toBe(false);
    expect(lines).toEqual([]);
  });

  it('logs a projector takeover', () => {
    const { logger, lines } = recorder();
    logProjectorTakeover(logger, { readModel: 'operations', instanceId: 'pod-b', checkpoint: 41n });
    expect(lines[0]).toMatchObject({
      message: 'projector takeover',
      fields: { readModel: 'operations', instanceId: 'pod-b', checkpoint: '41' },
    });
  });
});
