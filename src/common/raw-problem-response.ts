import { STATUS_CODES } from 'node:http';
import { PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem.js';

/**
 * A whole HTTP/1.1 problem+json response with `Connection: close`, to write on a socket outside
 * any framework; the caller closes the socket after it.
 */
export function rawProblemResponse(problem: ProblemDetails): string {
  const body = JSON.stringify(problem);
  return (
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n` +
    `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}
