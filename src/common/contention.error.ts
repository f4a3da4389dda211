/**
 * Too many concurrent writers kept changing one operation's stream between our read and our
 * append; answered 503 `contention` with Retry-After.
 */
export class ContentionError extends Error {
  override readonly name = 'ContentionError';
  constructor(readonly streamName: string) {
    super(`gave up after repeated concurrent writes to ${streamName}`);
  }
}
