import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Takes a response over from Fastify to stream it (`reply.hijack()`) and writes the head; call it
 * only once nothing can be refused any more. Returns the Node.js response to write to and end.
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
