import { ProblemView } from '../components/problem-view.js';
import { session } from '../session.js';

/**
 * Sign-in with an API key (`olk_…`, docs/security.md "The first key"). The key stays in this tab's
 * sessionStorage only and is sent as `Authorization: Bearer` to this ledger.
 */
export function SignIn({ error }: { error: unknown }) {
  return (
    <main class="sign-in">
      <h1>Operation Ledger console</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const token = new FormData(e.currentTarget).get('token');
          if (typeof token === 'string' && token.trim()) session.signIn(token.trim());
        }}
      >
        <label>
          API key
          <input
            name="token"
            type="password"
            autoComplete="off"
            placeholder="olk_…"
            required
            data-testid="token"
          />
        </label>
        <button type="submit">Sign in</button>
        <p class="hint">
          An operator or auditor key of your tenant. It is kept in this tab only (sessionStorage) and is
          forgotten when the tab closes.
        </p>
      </form>
      <ProblemView error={error} />
    </main>
  );
}
