// Who did it: every event of a history names the same identity — the API key's name, plus the
// worker id where a worker acted — also for events recorded before metadata carried the name.
import type { RecordedEvent } from '../../src/event-store/event-store.port.js';
import { eventActors } from '../../src/operations/status-and-history/event-actor.js';

let position = 0n;
function event(
  type: string,
  data: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): RecordedEvent {
  position += 1n;
  return {
    id: `e${position}`,
    type,
    streamName: 'operation-x',
    streamPosition: position,
    globalPosition: position,
    data,
    metadata,
    recordedAt: new Date(0),
  };
}

const worker = { keyId: 'k1', keyName: 'invoice-sync' };
const oldWorker = { keyId: 'k1' }; // recorded before keyName was written

describe('eventActors', () => {
  it('claim, step, unknown and evidence all read "key name (worker id)" or the key name', () => {
    const labels = eventActors(
      [
        event('OperationClaimed', { attempt: 1, workerId: 'pid-15318' }, worker),
        event('StepStarted', { attempt: 1, step: 'create' }, worker),
        event('DuplicateClaimPrevented', { attempt: 1, workerId: null, answer: 'in_progress' }, worker),
        event('OutcomeUnknown', { attempt: 1, reason: 'reported_timeout' }, worker),
        event(
          'RecoveryEvidenceSubmitted',
          { attempt: 1, actor: 'recovery-bot' },
          { keyId: 'k2', keyName: 'recovery-bot' },
        ),
      ],
      new Map(),
    ).map((a) => a.label);
    expect(labels).toEqual([
      'invoice-sync (pid-15318)',
      'invoice-sync (pid-15318)',
      'invoice-sync', // another copy's duplicate claim, without a worker id: not the holder
      'invoice-sync (pid-15318)',
      'recovery-bot',
    ]);
  });

  it('old events without keyName read the name looked up by key id; a late confirmation names its own attempt', () => {
    const actors = eventActors(
      [
        event('OperationClaimed', { attempt: 1, workerId: 'w-a' }, oldWorker),
        event('StepStarted', { attempt: 1 }, oldWorker),
        event('OperationClaimed', { attempt: 2, workerId: 'w-b' }, oldWorker),
        event(
          'OperationConfirmed',
          { attempt: 2, reportedByAttempt: 1, source: 'late_confirmation' },
          oldWorker,
        ),
      ],
      new Map([['k1', 'invoice-sync']]),
    );
    expect(actors.map((a) => a.label)).toEqual([
      'invoice-sync (w-a)',
      'invoice-sync (w-a)',
      'invoice-sync (w-b)',
      'invoice-sync (w-a)',
    ]);
    expect(actors[1]).toEqual({
      label: 'invoice-sync (w-a)',
      keyName: 'invoice-sync',
      keyId: 'k1',
      workerId: 'w-a',
      job: null,
    });
  });

  it('the lease sweeper is named as the job, with no worker; an unknown key shows its id', () => {
    const actors = eventActors(
      [
        event('OperationClaimed', { attempt: 1, workerId: 'w-a' }, { keyId: 'gone' }),
        event('OutcomeUnknown', { attempt: 1, reason: 'lease_expired' }),
        event('OperationReleased', { attempt: 1, releasedBy: 'sweeper' }, { job: 'sweeper' }),
      ],
      new Map(),
    );
    expect(actors.map((a) => a.label)).toEqual(['key gone (w-a)', 'sweeper', 'sweeper']);
  });
});
