/**
 * The clock moved to `src/common/clock.ts` (shared by every feature). This re-export keeps
 * `src/projections` compiling until it imports the new path; nothing in `src/operations` uses it.
 */
export { CLOCK, systemClock, type Clock } from '../../common/clock.js';
