import { useEffect, useState } from 'preact/hooks';
import { get, seg } from '../api.js';
import type { PageProps } from '../page-props.js';
import { ProblemView } from '../components/problem-view.js';
import { keyText, when, type KeyParts } from '../format.js';
import { href } from '../router.js';

/** One difference of the conflict report's field-level diff (RFC 6901 JSON Pointer path). */
interface Difference {
  readonly path: string;
  readonly kind: 'changed' | 'added' | 'removed';
  readonly existing?: unknown;
  readonly incoming?: unknown;
}

interface Conflict {
  readonly eventId: string;
  readonly position: string;
  readonly operationId: string;
  readonly key: KeyParts;
  readonly attempt: number;
  readonly at: string;
  readonly workerId: string | null;
  readonly existingFingerprint: string;
  readonly incomingFingerprint: string;
  readonly diff: { differences?: Difference[] } | Difference[] | null;
  readonly diffTruncated: boolean;
}

const differencesOf = (c: Conflict): Difference[] =>
  Array.isArray(c.diff) ? c.diff : (c.diff?.differences ?? []);

/** A JSON value as it was sent (pretty for objects), or `(absent)`. */
const show = (value: unknown, present: boolean) => (present ? JSON.stringify(value, null, 1) : '(absent)');

/**
 * Payload conflicts (same key, different payload), newest first, each with both fingerprints,
 * when and which worker, and the field-level diff of the first claim's payload against the
 * conflicting one: one line per JSON Pointer, removed / changed / added.
 */
export function ConflictsPage({ tenant }: PageProps) {
  const [items, setItems] = useState<Conflict[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [action, setAction] = useState('');
  const [error, setError] = useState<unknown>(null);
  const path = `/v1/tenants/${seg(tenant)}/conflicts`;

  useEffect(() => {
    get<{ items: Conflict[]; nextCursor: string | null }>(path, { action, limit: 50 }).then((page) => {
      setItems(page.items);
      setNext(page.nextCursor);
      setError(null);
    }, setError);
  }, [path, action]);

  const more = () =>
    next &&
    get<{ items: Conflict[]; nextCursor: string | null }>(path, { action, limit: 50, cursor: next }).then(
      (page) => {
        setItems((current) => [...current, ...page.items]);
        setNext(page.nextCursor);
      },
      setError,
    );

  return (
    <section>
      <h1>Payload conflicts</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <input
            onChange={(e) => setAction(e.currentTarget.value.trim())}
            placeholder="e.g. invoice.create"
          />
        </label>
      </form>
      <ProblemView error={error} />
      {items.length === 0 ? <p class="empty">No payload conflicts.</p> : null}
      {items.map((c) => (
        <article class="conflict" key={c.eventId} data-testid="conflict">
          <header>
            <a href={href({ page: 'operation', id: c.operationId })}>{keyText(c.key)}</a>
            <span>
              {when(c.at)} · attempt {c.attempt} · {c.workerId ? `worker ${c.workerId}` : 'no worker id'}
            </span>
          </header>
          <div class="fingerprints">
            <span>
              first claim <code>{c.existingFingerprint.slice(0, 16)}…</code>
            </span>
            <span>
              conflicting <code>{c.incomingFingerprint.slice(0, 16)}…</code>
            </span>
          </div>
          <table class="grid diff" data-testid="diff">
            <thead>
              <tr>
                <th>Field</th>
                <th>Change</th>
                <th>First claim</th>
                <th>Conflicting claim</th>
              </tr>
            </thead>
            <tbody>
              {differencesOf(c).map((d) => (
                <tr key={d.path} class={`diff-${d.kind}`}>
                  <td>
                    <code>{d.path || '(whole payload)'}</code>
                  </td>
                  <td>{d.kind}</td>
                  <td class="old">
                    <pre>{show(d.existing, d.kind !== 'added')}</pre>
                  </td>
                  <td class="new">
                    <pre>{show(d.incoming, d.kind !== 'removed')}</pre>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {c.diffTruncated ? <p class="hint">Only the first differences are listed.</p> : null}
        </article>
      ))}
      {next ? (
        <button type="button" onClick={() => void more()}>
          Load more
        </button>
      ) : null}
    </section>
  );
}
