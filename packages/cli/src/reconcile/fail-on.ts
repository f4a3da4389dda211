import { RECONCILIATION_CATEGORIES } from '@operation-ledger/client';
import { InvalidArgumentError } from 'commander';

/**
 * Commander collector of `ledger reconcile --fail-on`: categories, comma-separated or repeated,
 * added to `previous`.
 * @throws InvalidArgumentError for an unknown category, and for a value that names none (an empty
 *   variable must not turn the check off without a word).
 */
export function collectFailOn(value: string, previous: string[] = []): string[] {
  const known = RECONCILIATION_CATEGORIES as readonly string[];
  const added = value
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (added.length === 0)
    throw new InvalidArgumentError(`"${value}" names no category: one of ${known.join(', ')}`);
  const wrong = added.find((c) => !known.includes(c));
  if (wrong) throw new InvalidArgumentError(`"${wrong}" is not a category: one of ${known.join(', ')}`);
  return [...previous, ...added];
}
