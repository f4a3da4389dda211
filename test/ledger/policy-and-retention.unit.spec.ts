// Action policies (validation, fingerprint exclusions) and the retention tombstone decision.
import {
  DEFAULT_POLICY,
  fingerprintInput,
  fold,
  parseActionPolicy,
  payloadFingerprint,
  type LedgerCommand,
} from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import { LEASE_MS, T0, at, claim, duplicateEffect, history } from './support/fixtures.js';

describe('action policy validation', () => {
  it('fills defaults and accepts a complete policy', () => {
    const parsed = parseActionPolicy({ requireApproval: true, fingerprintExcludedFields: ['/meta/traceId'] });
    expect(parsed).toEqual({
      ok: true,
      value: { ...DEFAULT_POLICY, requireApproval: true, fingerprintExcludedFields: ['/meta/traceId'] },
    });
  });

  it.each([
    [{ maxLeaseMs: 500 }, 'policy.maxLeaseMs'],
    [{ defaultLeaseMs: 60_000, maxLeaseMs: 30_000 }, 'policy.defaultLeaseMs'],
    [{ retentionMs: 1000 }, 'policy.retentionMs'],
    [{ afterRetention: 'delete' }, 'policy.afterRetention'],
    [{ replayAllowed: 'no' }, 'policy.replayAllowed'],
    [{ recoveryMode: 'magic' }, 'policy.recoveryMode'],
    [{ fingerprintExcludedFields: ['meta.traceId'] }, 'policy.fingerprintExcludedFields.0'],
    [{ requireAproval: true }, 'policy.requireAproval'],
  ])('refuses %j naming %s', (input, field) => {
    const parsed = parseActionPolicy(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((i) => i.field)).toContain(field);
  });
});

describe('fingerprint exclusions', () => {
  const payload = {
    order: 812,
    meta: { traceId: 'abc', source: 'x/y' },
    lines: [{ sku: 'A', requestId: 1 }],
  };

  it('removes the named members only from the fingerprint input, never from the payload', () => {
    const input = fingerprintInput(payload, ['/meta/traceId', '/lines/0/requestId', '/absent/field']);
    expect(input).toEqual({ order: 812, meta: { source: 'x/y' }, lines: [{ sku: 'A' }] });
    expect(payload.meta.traceId).toBe('abc');
  });

  it('makes two deliveries that differ only in excluded fields the same fingerprint, and others not', () => {
    const other = { ...payload, meta: { ...payload.meta, traceId: 'zzz' } };
    const excl = ['/meta/traceId'];
    expect(payloadFingerprint(fingerprintInput(other, excl))).toBe(
      payloadFingerprint(fingerprintInput(payload, excl)),
    );
    expect(payloadFingerprint(other)).not.toBe(payloadFingerprint(payload));
    const changed = { ...payload, order: 813 };
    expect(payloadFingerprint(fingerprintInput(changed, excl))).not.toBe(
      payloadFingerprint(fingerprintInput(payload, excl)),
    );
  });

  it('decodes ~1 and ~0 escapes (RFC 6901)', () => {
    expect(fingerprintInput({ 'a/b': 1, 'c~d': 2, e: 3 }, ['/a~1b', '/c~0d'])).toEqual({ e: 3 });
  });
});

describe('retention tombstones', () => {
  const DAY = 86_400_000;
  const archive = (now: number, afterRetention = 'tombstone') =>
    ({ type: 'ArchiveOperation', now, retentionMs: DAY, afterRetention }) as unknown as LedgerCommand;

  it('archives a confirmed operation after its retention; a repeat still replays the outcome', () => {
    const spec = given(history.confirmed('INV-1'))
      .when(archive(at(5) + DAY))
      .then([
        {
          type: 'OperationArchived',
          data: { snapshot: { status: 'confirmed', confirmation: { destinationRef: 'INV-1' } } },
        },
      ]);
    // The store truncates everything before the tombstone: fold the tombstone alone.
    const tombstoneOnly = spec.decision.events;
    given(tombstoneOnly)
      .when(claim(at(5) + DAY + 1))
      .thenResult({ kind: 'replayed', state: 'confirmed', outcome: { destinationRef: 'INV-1' } });
    expect(fold(tombstoneOnly).fingerprint).toBe(fold(history.confirmed('INV-1')).fingerprint);
  });

  it('with afterRetention=refuse, a repeat is refused retention-expired, never a new first claim', () => {
    const events = given(history.confirmed('INV-1')).when(archive(at(5) + DAY, 'refuse')).decision.events;
    given(events)
      .when(claim(at(5) + DAY + 1))
      .thenRefused('retention-expired')
      .thenEvents([]);
  });

  it('keeps history inside the retention period and never archives live or open work', () => {
    given(history.confirmed())
      .when(archive(at(5) + DAY - 1))
      .thenNothingHappened();
    given(history.inProgress())
      .when(archive(T0 + LEASE_MS + 10 * DAY))
      .thenNothingHappened();
    given(history.unknown())
      .when(archive(T0 + 10 * DAY))
      .thenNothingHappened();
    given(history.failedRetryable())
      .when(archive(T0 + 10 * DAY))
      .thenNothingHappened();
    given([...history.confirmed('INV-1'), duplicateEffect(1, at(7), 'INV-1', 'INV-2', 1)])
      .when(archive(T0 + 10 * DAY))
      .thenNothingHappened();
  });

  it('archives final failures and abandoned operations, and only once', () => {
    given(history.failedFinal())
      .when(archive(T0 + 10 * DAY))
      .then([{ type: 'OperationArchived', data: { snapshot: { status: 'failed', retryable: false } } }]);
    const events = given(history.abandoned()).when(archive(T0 + 10 * DAY)).decision.events;
    given(events)
      .when(archive(T0 + 20 * DAY))
      .thenNothingHappened();
  });
});
