import type { FeedStatus } from '../sse.js';

/** The live feed's state, as a small badge (live / resumed after #id / reconnecting / stopped). */
export function FeedBadge({ status }: { status: FeedStatus }) {
  const label =
    status.kind === 'live'
      ? status.resumedAfter
        ? `live (resumed after #${status.resumedAfter})`
        : 'live'
      : status.kind === 'reconnecting'
        ? `reconnecting in ${Math.round(status.inMs / 1000)} s (${status.reason})`
        : status.kind === 'stopped'
          ? `not live: ${status.reason}`
          : 'connecting…';
  return (
    <span class={`feed feed-${status.kind}`} data-testid="feed-status" title="Server-Sent Events feed">
      {label}
    </span>
  );
}
