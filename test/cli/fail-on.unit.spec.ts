import { InvalidArgumentError } from 'commander';
import { collectFailOn } from '../../packages/cli/src/reconcile/fail-on.js';

// `ledger reconcile --fail-on` makes a scheduled check fail on the categories named. A value that
// names none (an unset variable: `--fail-on "$FAIL_ON"`) must not turn the check off silently.
describe('--fail-on', () => {
  it('takes categories comma-separated or repeated', () => {
    expect(collectFailOn('duplicate_effect, missing_at_destination')).toEqual([
      'duplicate_effect',
      'missing_at_destination',
    ]);
    expect(collectFailOn('unknown_found', ['duplicate_effect'])).toEqual([
      'duplicate_effect',
      'unknown_found',
    ]);
  });

  it('refuses a value that names no category, and an unknown one, naming the categories', () => {
    for (const value of ['', ' ', ',', ' , ']) {
      expect(() => collectFailOn(value)).toThrow(InvalidArgumentError);
      expect(() => collectFailOn(value)).toThrow(/names no category: one of .*duplicate_effect/);
    }
    expect(() => collectFailOn('duplicates')).toThrow(/"duplicates" is not a category/);
  });
});
