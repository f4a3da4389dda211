import { STATUS_CODES } from 'node:http';
import { PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem.js';

/**
 * A whole HTTP/1.1 response carrying `problem` as `application/problem+json` with
 * `Connection: close`, as bytes to write on a socket directly — for the answers the server gives
 * outside any framework (a request that ran out of time), so that they too are RFC 9457
 * problem+json. The status line's is `problem.status`; the caller closes the socket after it.
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
