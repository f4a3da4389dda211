import { useEffect, useState } from 'preact/hooks';
import { get } from './api.js';
import { ConflictsPage } from './pages/conflicts.js';
import { MetricsPage } from './pages/metrics.js';
import { OperationPage } from './pages/operation.js';
import { OperationsPage } from './pages/operations.js';
import { ReconciliationsPage } from './pages/reconciliations.js';
import { ReviewQueuePage } from './pages/review-queue.js';
import { SignIn } from './pages/sign-in.js';
import { href, useRoute, type Route } from './router.js';
import type { PageProps } from './page-props.js';
import { session, type Me } from './session.js';

const NAV: readonly [Route['page'], string][] = [
  ['queue', 'Review queue'],
  ['operations', 'Operations'],
  ['conflicts', 'Conflicts'],
  ['metrics', 'Metrics'],
  ['reconciliations', 'Reconciliations'],
];

/** The console: sign-in until a key is given, then the navigation and the current page. */
export function App() {
  const [token, setToken] = useState(session.token());
  const [tenant, setTenant] = useState(session.tenant());
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);
  const route = useRoute();

  useEffect(
    () =>
      session.onChange(() => {
        setToken(session.token());
        setTenant(session.tenant());
      }),
    [],
  );
  useEffect(() => {
    setMe(null);
    if (!token) return;
    get<Me>('/v1/me').then(
      (who) => {
        setMe(who);
        if (who.tenant !== '*') session.setTenant(who.tenant);
      },
      (e: unknown) => {
        setError(e);
        session.expire();
      },
    );
  }, [token]);

  if (!token) return <SignIn error={error} />;
  if (!me) return <p class="loading">Checking the key…</p>;
  const shown = me.tenant === '*' ? tenant : me.tenant;
  const active = route.page === 'operation' ? 'operations' : route.page;
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Operation Ledger</span>
        <nav>
          {NAV.map(([page, label]) => (
            <a key={page} href={href({ page })} class={page === active ? 'active' : ''}>
              {label}
            </a>
          ))}
        </nav>
        <span class="who" data-testid="who">
          {me.name} · {me.roles.join(', ')} ·{' '}
          {me.tenant === '*' ? <TenantPicker tenant={tenant ?? ''} /> : <strong>{me.tenant}</strong>}
        </span>
        <button type="button" class="link" onClick={() => session.expire()}>
          Sign out
        </button>
      </header>
      <main>
        {!shown ? (
          <p>This key can read every tenant: enter the tenant to show above.</p>
        ) : (
          <Page route={route} me={me} tenant={shown} />
        )}
      </main>
    </div>
  );
}

function Page({ route, me, tenant }: { route: Route } & PageProps) {
  switch (route.page) {
    case 'operation':
      return <OperationPage key={route.id} id={route.id!} me={me} tenant={tenant} />;
    case 'operations':
      return <OperationsPage key={tenant} me={me} tenant={tenant} />;
    case 'conflicts':
      return <ConflictsPage key={tenant} me={me} tenant={tenant} />;
    case 'metrics':
      return <MetricsPage key={tenant} me={me} tenant={tenant} />;
    case 'reconciliations':
      return <ReconciliationsPage key={tenant} me={me} tenant={tenant} />;
    default:
      return <ReviewQueuePage key={tenant} me={me} tenant={tenant} />;
  }
}

/** Tenant field for `*` keys (the API is per tenant: /v1/tenants/{tenant}/…). */
function TenantPicker({ tenant }: { tenant: string }) {
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault();
        const value = new FormData(e.currentTarget).get('tenant');
        if (typeof value === 'string' && value.trim()) session.setTenant(value.trim());
      }}
    >
      <input name="tenant" aria-label="Tenant" placeholder="tenant" value={tenant} size={12} />
      <button type="submit">Show</button>
    </form>
  );
}
