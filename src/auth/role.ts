/**
 * Roles of an API key (docs/security.md):
 * - `worker`: claims and their fenced follow-ups;
 * - `operator`: resolve, approve, replay, policies;
 * - `auditor`: status, history, reports, subscriptions (read-only);
 * - `admin`: API keys.
 */
export type Role = 'worker' | 'operator' | 'auditor' | 'admin';

export const ROLES: readonly Role[] = ['worker', 'operator', 'auditor', 'admin'];

/** Whether `value` is one of {@link ROLES}. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
