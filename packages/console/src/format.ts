import type { OperationKey } from '@operation-ledger/protocol';
/** A key `{tenant, source, action, subject, revision}`, as the protocol types it. */
export type KeyParts = OperationKey;

/** `source · action · subject@revision` (the tenant is the page's). */
export const keyText = (k: KeyParts) => `${k.source} · ${k.action} · ${k.subject}@${k.revision}`;

/** A duration in ms as `42 s`, `7 min`, `3 h 5 min`, `2 d 4 h`. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** An ISO time in the browser's zone, to the second, or `—`. */
export function when(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { hour12: false });
}

/** Any JSON value as compact text (strings without quotes). */
export function text(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Review reasons and their labels, in the order the queue shows their counts. */
export const REVIEW_REASONS: readonly (readonly [string, string])[] = [
  ['unknown_outcome', 'Unknown outcome'],
  ['final_failure', 'Final failure'],
  ['duplicate_effect', 'Duplicate effect'],
  ['awaiting_approval', 'Awaiting approval'],
];

export const reasonLabel = (reason: string) => REVIEW_REASONS.find(([r]) => r === reason)?.[1] ?? reason;

/** Operation states (filters). */
export { OPERATION_STATES as STATES } from '@operation-ledger/protocol';

/** A `datetime-local` input value as an ISO 8601 UTC time, or undefined when empty. */
export function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
