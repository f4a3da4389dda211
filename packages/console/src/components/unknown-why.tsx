/** Characters of the worker's text shown before it is cut (the whole text on hover and on expand). */
const SHORT = 80;

/**
 * Why an operation is unknown: its true label (`reported_by_worker`, `reported_timeout`,
 * `lease_expired_after_step`) and the worker's own text — cut to a line, in full on hover (title)
 * and when expanded.
 */
export function UnknownWhy({ cause, detail }: { cause: string; detail: string | null | undefined }) {
  const text = detail ?? '';
  return (
    <span class="why-text" data-testid="unknown-why">
      <span class="tag" data-testid="unknown-cause">
        {cause}
      </span>{' '}
      {text.length <= SHORT ? (
        <span title={text}>{text}</span>
      ) : (
        <details>
          <summary title={text}>{`${text.slice(0, SHORT - 1)}…`}</summary>
          <span data-testid="unknown-detail-full">{text}</span>
        </details>
      )}
    </span>
  );
}
