/**
 * Jest's test sequencer, with a committed estimate of every file's wall time (./expected-wall-s.json,
 * seconds, from a `npm run test:timings` run) for files Jest has no timing of yet.
 *
 * Jest starts the longest files first, by the durations it cached from earlier runs on this
 * checkout; without them (a fresh clone: CI) it orders by file size, and a long file that is
 * small (the demo, a fuzz file) started late and ran on alone at the end: in a fresh clone's
 * first run, the last file started 270 s into a 287 s run. Durations Jest cached still win; a
 * file in neither (a new one) runs first, as Jest does.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Sequencer from '@jest/test-sequencer';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..', '..');
/** Relative test path → expected wall seconds. */
const expected = JSON.parse(readFileSync(join(here, 'expected-wall-s.json'), 'utf8'));

export default class ExpectedTimeSequencer extends Sequencer {
  /** @returns the cached duration of `test` (ms) or the committed estimate (ms), else undefined. */
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = expected[relative(ROOT, test.path)];
    return seconds == null ? undefined : seconds * 1000;
  }
}
