import { useState } from 'preact/hooks';
import { post, ProblemError, seg } from '../api.js';
import { keyText, type KeyParts } from '../format.js';

/** A bulk action on unknown outcomes: one that needs no per-operation input (no reference). */
interface BulkAction {
  readonly id: string;
  readonly label: string;
  /** What each operation becomes, for the preview. */
  readonly becomes: string;
  readonly path: string;
  readonly body: (reason: string) => Record<string, unknown>;
}

/**
 * The bulk actions (the CLI's `review --resolve` offers the same two resolutions): a confirmed
 * resolution or a `found` verdict needs each operation's own reference, so they stay per operation.
 */
export const BULK_ACTIONS: readonly BulkAction[] = [
  {
    id: 'resolve-not_found',
    label: 'Resolve not_found',
    becomes: 'released (a new attempt may run)',
    path: 'resolve',
    body: (reason) => ({ resolution: 'not_found', reason }),
  },
  {
    id: 'resolve-abandoned',
    label: 'Resolve abandoned',
    becomes: 'abandoned (later claims replay it)',
    path: 'resolve',
    body: (reason) => ({ resolution: 'abandoned', reason }),
  },
  {
    id: 'evidence-not_found',
    label: 'Evidence: not_found',
    becomes: 'released, as a lookup found nothing',
    path: 'evidence',
    body: (note) => ({ verdict: 'not_found', checkedFields: {}, note }),
  },
  {
    id: 'evidence-inconclusive',
    label: 'Evidence: inconclusive',
    becomes: 'still unknown, with the lookup recorded',
    path: 'evidence',
    body: (note) => ({ verdict: 'inconclusive', checkedFields: {}, note }),
  },
];

/** One selected operation. */
export interface BulkTarget {
  readonly operationId: string;
  readonly key: KeyParts;
}

/** How one operation's request ended: the state it led to, or the ledger's problem code. */
interface ItemResult {
  readonly target: BulkTarget;
  readonly ok: boolean;
  readonly text: string;
}

/**
 * The bulk bar of the review queue: one action and one reason for every selected unknown outcome;
 * a preview says how many and what they become before anything is sent; then each previewed one
 * is sent on its own (a refusal of one — e.g. resolved elsewhere meanwhile — does not stop the
 * rest) and the result of each is listed. `onDone` runs
 * after the last, so the caller clears its selection.
 */
export function BulkBar({ targets, onDone }: { targets: readonly BulkTarget[]; onDone: () => void }) {
  const [actionId, setActionId] = useState('');
  const [reason, setReason] = useState('');
  // the operations previewed: what the run acts on, even if some leave the queue meanwhile
  const [planned, setPlanned] = useState<readonly BulkTarget[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<ItemResult[] | null>(null);
  const action = BULK_ACTIONS.find((a) => a.id === actionId);

  const run = async () => {
    if (!action || !planned) return;
    setBusy(true);
    const out: ItemResult[] = [];
    for (const target of planned) {
      try {
        const answer = await post<{ state?: string }>(
          `/v1/operations/${seg(target.operationId)}/${action.path}`,
          action.body(reason.trim()),
        );
        out.push({ target, ok: true, text: answer.state ?? 'recorded' });
      } catch (error) {
        const p = error instanceof ProblemError ? error.problem : null;
        out.push({ target, ok: false, text: p ? `${p.status} ${p.code ?? 'error'}` : String(error) });
      }
      setResults([...out]);
    }
    setBusy(false);
    setPlanned(null);
    setReason('');
    onDone();
  };

  if (targets.length === 0 && !planned && !results) return null;
  return (
    <section class="bulk-bar actions" data-testid="bulk-bar">
      {targets.length > 0 ? (
        <form
          class="action-form"
          onSubmit={(e) => {
            e.preventDefault();
            setResults(null);
            setPlanned([...targets]);
          }}
        >
          <strong data-testid="bulk-selected">{targets.length} selected</strong>
          <label>
            Action
            <select
              value={actionId}
              required
              onChange={(e) => setActionId(e.currentTarget.value)}
              data-testid="bulk-action"
            >
              <option value="" disabled>
                choose…
              </option>
              {BULK_ACTIONS.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Reason (recorded with each)
            <textarea
              rows={2}
              required
              maxLength={4096}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
              data-testid="bulk-reason"
            />
          </label>
          <button type="submit" disabled={busy} data-testid="bulk-preview">
            Preview
          </button>
        </form>
      ) : null}
      {planned && action ? (
        <div class="hint" data-testid="bulk-confirm">
          <p>
            <strong>{action.label}</strong> on <strong data-testid="bulk-count">{planned.length}</strong>{' '}
            operation(s): each becomes {action.becomes}.
          </p>
          <button type="button" disabled={busy} onClick={() => void run()} data-testid="bulk-run">
            {action.label} {planned.length}
          </button>{' '}
          <button type="button" disabled={busy} onClick={() => setPlanned(null)}>
            Cancel
          </button>
        </div>
      ) : null}
      {results ? (
        <table class="grid" data-testid="bulk-results">
          <thead>
            <tr>
              <th>Operation</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.target.operationId} class={r.ok ? 'ok' : 'refused'}>
                <td>{keyText(r.target.key)}</td>
                <td data-testid="bulk-result">{r.ok ? `ok → ${r.text}` : `refused: ${r.text}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
