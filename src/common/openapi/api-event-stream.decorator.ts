import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';

/**
 * A Server-Sent Events route (docs/api.md "Subscriptions"): 200 `text/event-stream` whose
 * events are described in words (OpenAPI 3.0 has no schema for an event stream's frames).
 * @param events the event names and their data, e.g. "`operation`: a status row".
 */
export function ApiEventStream(events: string): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/event-stream'),
    ApiOkResponse({
      description:
        `Server-Sent Events: \`retry: 2000\`, then \`ready\` { feed, tenant, checkpoint, resumedAfter } ` +
        `(or \`reset\` { reason, checkpoint }), then ${events}; each id is a global position ` +
        '(resume with Last-Event-ID); a `: keep-alive` comment every 15 s.',
      schema: { type: 'string' },
    }),
  );
}
