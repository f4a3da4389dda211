import type { PoliciesApi } from '../http/policies-api.js';

/** How long a policy read is trusted, ms: a changed policy shows within it. */
const POLICY_TTL_MS = 60_000;

/**
 * The retention of each tenant's action (ms; null = kept forever or unknown), from the ledger's
 * action policies, read once a minute per action. A refused or failed read (e.g. a key without
 * the `auditor` role) counts as unknown: no expiry is advertised, and cached answers stay until
 * evicted.
 */
export class KeyExpiry {
  private readonly known = new Map<string, { retentionMs: number | null; until: number }>();

  /** @param setting the adapters' `expiry` option. */
  constructor(
    private readonly policies: Pick<PoliciesApi, 'get'>,
    private readonly setting: 'policy' | number | false,
  ) {}

  /** Retention of `tenant`'s `action`, ms, or null. */
  async retentionMs(tenant: string, action: string): Promise<number | null> {
    if (this.setting === false) return null;
    if (typeof this.setting === 'number') return this.setting;
    const id = `${tenant}\n${action}`;
    const hit = this.known.get(id);
    const now = Date.now();
    if (hit && hit.until > now) return hit.retentionMs;
    let retentionMs: number | null = null;
    try {
      const answer = await this.policies.get(tenant, action);
      const r = (answer.policy as { retentionMs?: unknown } | undefined)?.retentionMs;
      retentionMs = typeof r === 'number' ? r : null;
    } catch {
      retentionMs = null;
    }
    this.known.set(id, { retentionMs, until: now + POLICY_TTL_MS });
    return retentionMs;
  }
}
