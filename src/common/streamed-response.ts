import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Takes a response over from Fastify to stream it (a CSV export, an SSE subscription):
 * `reply.hijack()`, so Fastify neither sends nor completes it, then the status line and
 * `headers` (with those middleware set on the Node.js response already: `X-Request-Id`,
 * `Keep-Alive`). Returns the Node.js response to write to and end. Call it only once nothing can
 * be refused any more: an error thrown after it cannot become a problem+json answer.
 */
export function streamResponse(
  reply: FastifyReply,
  status: number,
  headers: OutgoingHttpHeaders,
): ServerResponse {
  reply.hijack();
  reply.raw.writeHead(status, headers);
  return reply.raw;
}
