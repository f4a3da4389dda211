/** See rename-into-place.js. */
export function renameIntoPlace(partial: string, dir: string): void;
