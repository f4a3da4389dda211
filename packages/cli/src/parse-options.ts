import { InvalidArgumentError } from 'commander';
import { UsageError } from './exit-codes.js';

/** Commander parser: a positive integer. */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('a positive integer');
  return Number(value);
}

/** Commander parser: an integer ≥ 0. */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('an integer >= 0');
  return Number(value);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Commander parser: a duration such as `90s`, `15m`, `1h`, `2d` (or plain ms) → milliseconds. */
export function durationMs(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('a duration like 90s, 15m, 1h or 2d');
  return Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!);
}

/**
 * Commander parser: a time — ISO 8601 with a zone (`2025-01-31T00:00:00Z`), a date
 * (`2025-01-31`, midnight UTC), or a duration ago (`2h` = two hours before now) — as ISO 8601.
 */
export function timeArg(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00:00.000Z`;
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)))
    return new Date(value).toISOString();
  try {
    return new Date(Date.now() - durationMs(value)).toISOString();
  } catch {
    throw new InvalidArgumentError('an ISO 8601 time with a zone, a date, or a duration ago like 2h');
  }
}

/** Commander parser: one of `choices`. */
export function oneOf<T extends string>(choices: readonly T[]) {
  return (value: string): T => {
    if (!(choices as readonly string[]).includes(value))
      throw new InvalidArgumentError(`one of ${choices.join(', ')}`);
    return value as T;
  };
}

/** Commander collector for repeatable options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `value` when it is one of `choices`. @throws UsageError naming `what` otherwise (for positionals). */
export function pick<T extends string>(value: string, choices: readonly T[], what: string): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${what} must be one of ${choices.join(', ')}, got "${value}"`);
}
