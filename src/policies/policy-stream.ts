/** Event type recording a new version of an action policy. */
export const POLICY_SET_EVENT = 'ActionPolicySet';

/** Action name that sets a tenant's default for actions without a policy of their own. */
export const ANY_ACTION = '*';

/** Stream prefix of policy streams; outside the operation prefixes so projections skip them. */
export const POLICY_STREAM_PREFIX = 'policy-';

/**
 * The stream of one tenant's policy for one action, `policy-<tenant>/<action>` (parts
 * percent-encoded); each event is one version (version = revision + 1).
 */
export function policyStreamName(tenant: string, action: string): string {
  return `${POLICY_STREAM_PREFIX}${encodeURIComponent(tenant)}/${encodeURIComponent(action)}`;
}
