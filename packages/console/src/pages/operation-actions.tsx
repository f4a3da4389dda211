import type { OperationStatus } from '@operation-ledger/protocol';
import { useState } from 'preact/hooks';
import { post, seg } from '../api.js';
import { ProblemView } from '../components/problem-view.js';

/** The status document fields the actions depend on. */
export type ActionableStatus = Pick<
  OperationStatus,
  'operationId' | 'state' | 'retryable' | 'duplicateEffects'
>;

type ActionId = 'resolve' | 'evidence' | 'approve' | 'reject' | 'replay' | 'acknowledge';

/** Each action's button label and its route under `/v1/operations/{operationId}/`. */
const ACTIONS: Record<ActionId, { readonly label: string; readonly path: string }> = {
  resolve: { label: 'Resolve', path: 'resolve' },
  evidence: { label: 'Submit evidence', path: 'evidence' },
  approve: { label: 'Approve', path: 'approve' },
  reject: { label: 'Reject', path: 'reject' },
  replay: { label: 'Replay', path: 'replay' },
  acknowledge: { label: 'Acknowledge duplicate effect', path: 'duplicate-effects/acknowledge' },
};

/** The actions the operation's state calls for (docs/api.md "Recovery and operator workflows"). */
export function relevantActions(s: ActionableStatus): ActionId[] {
  const out: ActionId[] = [];
  if (s.state === 'unknown') out.push('resolve', 'evidence');
  if (s.state === 'awaiting_approval') out.push('approve', 'reject');
  if (s.state === 'failed' && s.retryable === false) out.push('replay');
  if (s.duplicateEffects.some((d) => d.acknowledged !== true)) out.push('acknowledge');
  return out;
}

/** The request body of `action` from its form; the reason (or note) is required by the form. */
function bodyOf(action: ActionId, f: FormData): Record<string, unknown> {
  const field = (name: string) => {
    const v = f.get(name);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  const reason = field('reason');
  switch (action) {
    case 'resolve':
      return { resolution: field('resolution'), destinationRef: field('destinationRef'), reason };
    case 'evidence': {
      let checkedFields: unknown = field('checkedFields') ?? '{}';
      try {
        checkedFields = JSON.parse(checkedFields as string);
      } catch {
        // sent as text: the ledger names the field in its 400
      }
      return {
        verdict: field('verdict'),
        destinationRef: field('destinationRef'),
        checkedFields,
        note: reason,
      };
    }
    case 'acknowledge': {
      const refs = field('refs')
        ?.split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      return { reason, ...(refs?.length ? { refs } : {}) };
    }
    default:
      return { reason };
  }
}

/**
 * Operator actions on one operation (only rendered for keys with the operator role): only the
 * ones its state allows (an unknown operation is resolved or given evidence; approve/reject only
 * while awaiting approval; …) — none, and a line saying so, when nothing applies. Every action
 * needs a reason, recorded with the key's holder as actor; a resolution has no default, so a
 * misclick cannot confirm an effect nobody found. `onDone` runs after a success so the page
 * reloads status and timeline.
 */
export function OperationActions({
  status,
  onDone,
}: {
  status: ActionableStatus;
  onDone: (answer: unknown) => void;
}) {
  const relevant = relevantActions(status);
  const [action, setAction] = useState<ActionId | null>(relevant[0] ?? null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [resolution, setResolution] = useState('');

  if (action === null) {
    return (
      <section class="actions" data-testid="actions">
        <h2>Actions</h2>
        <p class="hint" data-testid="no-actions">
          No action applies in state <strong>{status.state}</strong>.
        </p>
      </section>
    );
  }

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    setBusy(true);
    setError(null);
    try {
      const path = `/v1/operations/${seg(status.operationId)}/${ACTIONS[action].path}`;
      const answer = await post(path, bodyOf(action, new FormData(form)));
      form.reset();
      setResolution('');
      onDone(answer);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="actions" data-testid="actions">
      <h2>Actions</h2>
      <div class="action-tabs">
        {relevant.map((a) => (
          <button
            type="button"
            key={a}
            class={`${a === action ? 'selected' : ''} primary`}
            onClick={() => setAction(a)}
            data-testid={`action-${a}`}
          >
            {ACTIONS[a].label}
          </button>
        ))}
      </div>
      <form onSubmit={(e) => void submit(e)} class="action-form" data-testid="action-form">
        {action === 'resolve' ? (
          <label>
            Resolution
            <select
              name="resolution"
              value={resolution}
              required
              onChange={(e) => setResolution(e.currentTarget.value)}
            >
              <option value="" disabled>
                choose what you found…
              </option>
              <option value="confirmed">confirmed — the effect exists at the destination</option>
              <option value="not_found">not_found — it does not: release for a new attempt</option>
              <option value="abandoned">abandoned — give up; later claims replay this</option>
            </select>
          </label>
        ) : null}
        {action === 'evidence' ? <EvidenceFields /> : null}
        {(action === 'resolve' && resolution === 'confirmed') || action === 'evidence' ? (
          <label>
            Destination reference
            <input name="destinationRef" placeholder="e.g. INV-42" />
          </label>
        ) : null}
        {action === 'acknowledge' ? (
          <label>
            References cleaned up (comma-separated; empty = all open)
            <input name="refs" />
          </label>
        ) : null}
        <label>
          Reason (recorded in the stream)
          <textarea name="reason" rows={2} required minLength={1} maxLength={4096} data-testid="reason" />
        </label>
        <button type="submit" disabled={busy} data-testid="submit-action">
          {ACTIONS[action].label}
        </button>
      </form>
      <ProblemView error={error} />
    </section>
  );
}

/** The verdict (no default: the operator says what the lookup found) and the fields checked. */
export function EvidenceFields() {
  return (
    <>
      <label>
        Verdict
        <select name="verdict" required defaultValue="">
          <option value="" disabled>
            choose what the lookup found…
          </option>
          <option value="found">found</option>
          <option value="not_found">not_found</option>
          <option value="inconclusive">inconclusive</option>
        </select>
      </label>
      <label>
        Checked fields (JSON)
        <textarea name="checkedFields" rows={2} placeholder='{"externalRef": "…"}' />
      </label>
    </>
  );
}
