import type { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from '../problem.js';
import { ProblemDetailsDto } from './problem-details.dto.js';
import { problemDescription, problemSchema, problemsByStatus } from './api-problems.decorator.js';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type Responses = Operation['responses'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Problems of every route that needs an API key (docs/api.md "Authentication, roles and tenants"). */
const AUTH_PROBLEMS = ['unauthenticated', 'forbidden', 'rate-limited'];
/** Problems of every route that reads a JSON body (docs/api.md "Conventions"). */
const BODY_PROBLEMS = ['validation', 'invalid-json', 'payload-too-large', 'unsupported-media-type'];
/** Path parameters checked before the route runs (400 `validation` naming them). */
const CHECKED_PATH_PARAMETERS = new Set(['operationId', 'tenant', 'action', 'step', 'keyId', 'id']);

/** Statuses whose answers carry `Retry-After` (docs/api.md "Retry-After"). */
const RETRY_AFTER = {
  description: 'Seconds to wait before retrying (RFC 9110 §10.2.3), at least 1',
  schema: { type: 'integer', minimum: 1 },
};

/**
 * Completes Nest's generated document, in place, with what follows from the global pipeline
 * rather than one route: the problems every route can answer (merged into its {@link ApiProblems}),
 * `Retry-After` headers, and one security requirement per route.
 * @returns the same document.
 */
export function completeOpenApiDocument(doc: OpenAPIObject): OpenAPIObject {
  const problem = doc.components?.schemas?.[ProblemDetailsDto.name];
  // Refusals add extension members (RFC 9457 §3.2): operationId, state, retryAfterMs, …
  if (problem && !('$ref' in problem)) problem.additionalProperties = true;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (op.security) op.security = dedupe(op.security);
      const codes = commonProblems(path, op);
      if (method === 'post' && appendsToAnOperation(path)) codes.push('contention');
      mergeProblems(op.responses, codes);
    }
  }
  return doc;
}

/** Routes whose command is appended to an operation's stream: refused 503 `contention` when its writers keep colliding. */
function appendsToAnOperation(path: string): boolean {
  return path.startsWith('/v1/claims') || path.startsWith('/v1/operations/{operationId}/');
}

function commonProblems(path: string, op: Operation): string[] {
  const codes = ['internal'];
  if (op.security?.length) codes.push(...AUTH_PROBLEMS);
  if (path.startsWith('/v1/')) codes.push('store-unavailable');
  const body = op.requestBody && 'content' in op.requestBody ? op.requestBody.content : undefined;
  if (body?.['application/json']) codes.push(...BODY_PROBLEMS);
  const params = (op.parameters ?? []).filter((p) => 'in' in p);
  const checked = params.some((p) => 'in' in p && (p.in === 'query' || CHECKED_PATH_PARAMETERS.has(p.name)));
  if (checked) codes.push('validation');
  if (path.includes('{operationId}')) codes.push('not-found');
  return codes;
}

/** Adds `codes` to the problem responses of `responses`, one per status, codes as an enum. */
function mergeProblems(responses: Responses, extra: readonly string[]): void {
  const declared: string[] = [];
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) < 400) continue;
    const schema =
      response && 'content' in response ? Object.values(response.content ?? {})[0]?.schema : undefined;
    const own = (schema as { allOf?: { properties?: { code?: { enum?: string[] } } }[] } | undefined)
      ?.allOf?.[1]?.properties?.code?.enum;
    if (!own) throw new Error(`a ${status} answer is declared without @ApiProblems`);
    declared.push(...own);
    delete responses[status];
  }
  for (const [status, codes] of problemsByStatus([...declared, ...extra])) {
    const retry = status === 429 || status === 503 || codes.includes('in-progress');
    responses[String(status)] = {
      description: problemDescription(codes),
      ...(retry ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema(codes) } },
    };
  }
}

function dedupe<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(JSON.stringify(i)) && seen.add(JSON.stringify(i)) !== undefined);
}
