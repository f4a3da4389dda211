/** What GET /v1/me says about the signed-in key. */
export interface Me {
  readonly keyId: string;
  readonly name: string;
  /** The key's tenant, or `*` (every tenant: the console then asks which one to show). */
  readonly tenant: string;
  readonly roles: readonly string[];
}

const TOKEN = 'ledger.console.token';
const TENANT = 'ledger.console.tenant';
const listeners = new Set<() => void>();

/**
 * The signed-in API key, kept in sessionStorage only (gone when the tab closes; never a cookie,
 * never in a URL, never in localStorage), and the tenant being viewed.
 */
export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN),
  tenant: (): string | null => sessionStorage.getItem(TENANT),
  signIn(token: string): void {
    sessionStorage.setItem(TOKEN, token);
    notify();
  },
  setTenant(tenant: string): void {
    sessionStorage.setItem(TENANT, tenant);
    notify();
  },
  /** Forgets the key (sign out, or the server answered 401). */
  expire(): void {
    if (sessionStorage.getItem(TOKEN) === null) return;
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(TENANT);
    notify();
  },
  onChange(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

function notify(): void {
  for (const listener of [...listeners]) listener();
}

/** Whether the key may take operator actions (resolve, approve, reject, replay, acknowledge, evidence). */
export const canOperate = (me: Me) => me.roles.includes('operator');
