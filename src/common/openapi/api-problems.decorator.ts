import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEMS, type ProblemCode } from '../problem-codes.js';
import { ProblemDetailsDto } from './problem-details.dto.js';

/** The problem schema of one status: ProblemDetails with `code` one of `codes`. */
export function problemSchema(codes: readonly string[]) {
  return {
    allOf: [
      { $ref: getSchemaPath(ProblemDetailsDto) },
      {
        type: 'object',
        required: ['code'],
        properties: { code: { type: 'string', enum: [...codes] } },
      },
    ],
  };
}

/** `codes` grouped by their status in {@link PROBLEMS}, in the table's order. */
export function problemsByStatus(codes: Iterable<string>): Map<number, string[]> {
  const wanted = new Set(codes);
  const out = new Map<number, string[]>();
  for (const [code, { status }] of Object.entries(PROBLEMS)) {
    if (!wanted.has(code)) continue;
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return new Map([...out].sort(([a], [b]) => a - b));
}

/** The description of a problem response: each code with its title. */
export function problemDescription(codes: readonly string[]): string {
  return codes
    .map((c) => `\`${c}\`: ${(PROBLEMS as Record<string, { title: string }>)[c]?.title ?? c}`)
    .join('; ');
}

/**
 * Documents the problems a route answers beyond the common ones (docs/api.md "Problem codes"),
 * one response per status from {@link PROBLEMS}; `completeOpenApiDocument` adds the common ones.
 */
export function ApiProblems(...codes: ProblemCode[]): MethodDecorator & ClassDecorator {
  const responses = [...problemsByStatus(codes)].map(([status, group]) =>
    ApiResponse({ status, description: problemDescription(group), schema: problemSchema(group) }),
  );
  return applyDecorators(ApiExtraModels(ProblemDetailsDto), ...responses);
}
