import type { StoredChange } from '../core/read-model.js';

/** Filters a subscriber may set; every one given must match. */
export interface ChangeFilter {
  readonly action?: string;
  readonly state?: string;
  readonly source?: string;
  readonly subjectPrefix?: string;
  readonly reason?: string;
}

/**
 * A predicate over feed changes from a subscriber's filters; `reason` matches the reasons before
 * or after the change, so a subscriber sees entries leave too.
 */
export function changeFilter(f: ChangeFilter): (change: StoredChange) => boolean {
  return (change) => {
    const d = change.data as {
      key?: { action?: string; source?: string; subject?: string };
      action?: string;
      state?: string;
      reasons?: string[];
      previousReasons?: string[];
    };
    const action = d.key?.action ?? d.action;
    if (f.action !== undefined && action !== f.action) return false;
    if (f.source !== undefined && d.key?.source !== f.source) return false;
    if (f.subjectPrefix !== undefined && !(d.key?.subject ?? '').startsWith(f.subjectPrefix)) return false;
    if (f.state !== undefined && d.state !== f.state) return false;
    if (f.reason !== undefined && ![...(d.reasons ?? []), ...(d.previousReasons ?? [])].includes(f.reason))
      return false;
    return true;
  };
}
