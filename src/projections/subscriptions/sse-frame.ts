import type { StoredChange } from '../core/read-model.js';

/** One SSE event block (WHATWG HTML §9.2.6): `id` (omitted when undefined), `event`, one `data` line. */
export function frame(event: string, data: unknown, id?: bigint): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The block of one feed change: its type as the event, its data plus `position`, its position as id. */
export function changeFrame(change: StoredChange): string {
  return frame(change.type, { ...change.data, position: change.position.toString() }, change.position);
}
