import { ProblemError, type Problem } from '../api.js';

/** The problem details of a refused request, as the ledger sent them (code, detail, fields). */
export function ProblemView({ error }: { error: unknown }) {
  if (!error) return null;
  const p: Problem =
    error instanceof ProblemError ? error.problem : { status: 0, title: 'Error', detail: String(error) };
  return (
    <div class="problem" role="alert" data-testid="problem">
      <strong>
        {p.status ? `${p.status} ` : ''}
        {p.code ?? 'error'}
      </strong>
      {p.title ? ` — ${p.title}` : ''}
      {p.detail ? <div>{p.detail}</div> : null}
      {p.errors?.length ? (
        <ul>
          {p.errors.map((e) => (
            <li key={e.field}>
              <code>{e.field}</code>: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
