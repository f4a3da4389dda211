import type { Stored } from '../storage-bounds.js';

/** Most lines one phase statement works on. */
export const MAX_CHUNK_LINES = 20_000;
/** Fewest lines one phase statement works on (tiny chunks only cost round trips). */
export const MIN_CHUNK_LINES = 10;
/**
 * How many times a line's spilled bytes one chunk may write, at most: the rows it updates or
 * inserts (an item carries the row's fields and more), their index entries and the WAL of each.
 */
const WRITE_AMPLIFICATION = 16;

/**
 * Lines per phase statement, so one chunk's writes stay well inside `headroomBytes` (the free
 * space checked before each chunk), between {@link MIN_CHUNK_LINES} and {@link MAX_CHUNK_LINES}.
 */
export function chunkLines(stored: Stored, headroomBytes: number): number {
  const rowBytes = stored.rows > 0 ? Math.max(1, stored.bytes / stored.rows) : 1;
  const lines = Math.floor(headroomBytes / (WRITE_AMPLIFICATION * rowBytes));
  return Math.min(MAX_CHUNK_LINES, Math.max(MIN_CHUNK_LINES, lines));
}
