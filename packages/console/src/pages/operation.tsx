import type { OperationStatus } from '@operation-ledger/protocol';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { get, seg } from '../api.js';
import type { PageProps } from '../page-props.js';
import { ProblemView } from '../components/problem-view.js';
import { UnknownWhy } from '../components/unknown-why.js';
import { keyText, text, when } from '../format.js';
import { canOperate } from '../session.js';
import { OperationActions } from './operation-actions.js';
import type { HistoryEvent } from './timeline-rows.js';
import { Timeline } from './timeline.js';

/** GET /v1/operations/{id} (docs/api.md "States"), optionally as of a revision. */
type Status = OperationStatus;

interface History {
  readonly streamName: string;
  readonly auditStreamName: string;
  readonly events: HistoryEvent[];
}

/**
 * One operation: its state, key, fingerprint, lease, steps with provider idempotency keys and
 * outcome, the merged decision + audit timeline, time travel by revision, and — for operator
 * keys — the actions its state calls for. After an action, status and timeline reload and the
 * events it appended are marked new.
 */
export function OperationPage({ id, me }: PageProps & { id: string }) {
  const [history, setHistory] = useState<History | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [latest, setLatest] = useState<number | null>(null);
  const [revision, setRevision] = useState<number | null>(null);
  const [newAfter, setNewAfter] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [answer, setAnswer] = useState<unknown>(null);

  const load = useCallback(async () => {
    try {
      const [s, h] = await Promise.all([
        get<Status>(`/v1/operations/${seg(id)}`),
        get<History>(`/v1/operations/${seg(id)}/history`),
      ]);
      setStatus(s);
      setHistory(h);
      setLatest(s.revision);
      setRevision(null);
      setError(null);
      return h;
    } catch (e) {
      setError(e);
      return null;
    }
  }, [id]);

  useEffect(() => void load(), [load]);

  const travel = async (to: number) => {
    const atLatest = to === latest;
    setRevision(atLatest ? null : to);
    try {
      setStatus(await get<Status>(`/v1/operations/${seg(id)}`, atLatest ? {} : { atRevision: to }));
    } catch (e) {
      setError(e);
    }
  };

  const afterAction = async (result: unknown) => {
    const before = Math.max(0, ...(history?.events.map((e) => e.globalPosition) ?? [0]));
    setAnswer(result);
    setNewAfter(before);
    await load();
  };

  if (error && !status) return <ProblemView error={error} />;
  if (!status || !history) return <p class="loading">Loading…</p>;
  const decisions = history.events.filter((e) => e.streamName === history.streamName);
  const cutoff =
    revision === null ? null : (decisions.find((e) => e.streamPosition === revision)?.globalPosition ?? null);
  const fresh = newAfter === null ? [] : history.events.filter((e) => e.globalPosition > newAfter);
  return (
    <section class="operation">
      <div class="title-row">
        <h1>{keyText(status.key)}</h1>
        <span class={`state state-${status.state}`} data-testid="state">
          {status.state}
        </span>
      </div>
      <ProblemView error={error} />
      <dl class="facts">
        <dt>Operation id</dt>
        <dd>
          <code>{status.operationId}</code>
        </dd>
        <dt>Key</dt>
        <dd>
          <code>{`${status.key.tenant}/${status.key.source}/${status.key.action}/${status.key.subject}@${status.key.revision}`}</code>
        </dd>
        <dt>Payload</dt>
        <dd>
          {status.payload === undefined || status.payload === null ? (
            <span class="hint">not recorded</span>
          ) : (
            <pre class="payload" data-testid="payload">
              {JSON.stringify(status.payload, null, 2)}
            </pre>
          )}
        </dd>
        <dt>Fingerprint</dt>
        <dd>
          <code title="SHA-256 of the RFC 8785 canonical payload" data-testid="fingerprint">
            {status.fingerprint}
          </code>
        </dd>
        <dt>Attempt</dt>
        <dd>{status.attempt}</dd>
        <dt>Lease</dt>
        <dd>
          {status.lease
            ? `${status.lease.workerId ?? 'worker'} · attempt ${status.lease.attempt} · until ${when(status.lease.expiresAt)}${status.lease.expired ? ' (expired)' : ''}`
            : '—'}
        </dd>
        <dt>Outcome</dt>
        <dd data-testid="outcome">
          {outcome(status)}
          {status.state === 'unknown' && status.unknown ? (
            <div>
              <UnknownWhy
                cause={status.unknown.cause ?? status.unknown.reason}
                detail={status.unknown.detail}
              />
            </div>
          ) : null}
        </dd>
      </dl>
      <h2>Steps</h2>
      <table class="grid">
        <thead>
          <tr>
            <th>Step</th>
            <th>Status</th>
            <th>Attempt</th>
            <th>Provider idempotency key</th>
            <th>Started</th>
            <th>Completed</th>
          </tr>
        </thead>
        <tbody>
          {status.steps.length === 0 ? (
            <tr>
              <td class="empty" colSpan={6}>
                No steps recorded.
              </td>
            </tr>
          ) : (
            status.steps.map((s) => (
              <tr key={s.step}>
                <td>{s.step}</td>
                <td>{s.status}</td>
                <td>{s.attempt}</td>
                <td>
                  <code>{s.providerIdempotencyKey}</code>
                </td>
                <td>{when(s.startedAt)}</td>
                <td>{when(s.completedAt)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      {canOperate(me) && revision === null ? (
        <OperationActions key={status.revision} status={status} onDone={(a) => void afterAction(a)} />
      ) : null}
      {fresh.length > 0 ? (
        <div class="success" role="status" data-testid="action-result">
          Recorded: {fresh.map((e) => `${e.type} (#${e.globalPosition})`).join(', ')} — answer {text(answer)}
        </div>
      ) : null}
      <h2>Timeline</h2>
      <div class="travel">
        <label class="row">
          <span>
            Time travel — state as of revision <strong data-testid="revision">{revision ?? latest}</strong>
            {revision === null ? ' (now)' : ` of ${latest}`}
          </span>
          <input
            type="range"
            min={0}
            max={latest ?? 0}
            value={revision ?? latest ?? 0}
            onInput={(e) => void travel(Number(e.currentTarget.value))}
            data-testid="revision-slider"
          />
        </label>
        {revision !== null ? (
          <button type="button" onClick={() => void travel(latest ?? 0)}>
            Back to now
          </button>
        ) : null}
      </div>
      <Timeline
        events={history.events}
        cutoff={cutoff}
        newAfter={newAfter}
        auditStream={history.auditStreamName}
      />
    </section>
  );
}

function outcome(s: Status): string {
  if (s.state === 'confirmed')
    return `confirmed${s.destinationRef ? `, destination ${s.destinationRef}` : ''}`;
  if (s.resolution) return `${s.resolution.resolution} by ${s.resolution.actor}: ${s.resolution.reason}`;
  if (s.state === 'unknown' && s.unknown)
    return `unknown since ${when(s.unknown.at)} (attempt ${s.unknown.attempt})`;
  if (s.lastError) return `${s.state}: ${s.lastError.code} — ${s.lastError.message}`;
  if (s.duplicateEffects.length)
    return `${s.state}; duplicate effects ${s.duplicateEffects.map((d) => d.ref).join(', ')}`;
  return s.state;
}
