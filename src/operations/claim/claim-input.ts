import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { LedgerConfig } from '../../config/ledger-config.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { assertStorable, flattenValidationErrors, validationProblem } from '../../common/validation.js';
import { operationIdFor, parseOperationKey, type JsonValue, type OperationKey } from '../../ledger/index.js';
import { ClaimRequestDto, MAX_SUPERSEDED_REVISIONS } from '../dto/claim-request.dto.js';

/**
 * A validated claim. The handler completes it under the action's policy (lease default and bound,
 * fields excluded from the fingerprint, approval) and the server time.
 */
export interface PreparedClaim {
  readonly key: OperationKey;
  readonly operationId: string;
  readonly payload: JsonValue;
  /** The lease asked for, ms; null takes the policy's default. */
  readonly requestedLeaseMs: number | null;
  readonly workerId: string | null;
  /** Amendments: the older revision this claim supersedes (< key.revision), or null. */
  readonly supersedes: number | null;
}

/**
 * Validates one claim body (already parsed JSON) with the same DTO and rules as POST /v1/claims.
 * @throws ProblemException 400 `validation` / `invalid-key`.
 */
export function validateClaimBody(body: unknown): ClaimRequestDto {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationProblem([{ field: '', message: 'a claim must be a JSON object' }]);
  }
  const dto = plainToInstance(ClaimRequestDto, body);
  const errors = validateSync(dto, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  if (errors.length > 0) throw validationProblem(flattenValidationErrors(errors));
  assertStorable(body);
  return dto;
}

/**
 * Turns a validated claim DTO into a {@link PreparedClaim}: key checked by the domain, payload
 * required and within `maxPayloadBytes` (its JSON size), operationId (UUID v5), `supersedes`
 * below the key's revision.
 * @throws ProblemException 400 `invalid-key` / `validation`, 413 `payload-too-large`.
 */
export function prepareClaim(dto: ClaimRequestDto, config: LedgerConfig): PreparedClaim {
  const parsed = parseOperationKey(dto.key);
  if (!parsed.ok) throw validationProblem(parsed.issues);
  if (dto.payload === undefined) {
    throw validationProblem([{ field: 'payload', message: 'payload is required (any JSON value)' }]);
  }
  const payload = dto.payload as JsonValue;
  const size = Buffer.byteLength(JSON.stringify(payload), 'utf8');
  if (size > config.maxPayloadBytes) {
    throw new ProblemException(
      problem('payload-too-large', 413, `payload is ${size} bytes; the limit is ${config.maxPayloadBytes}`, {
        errors: [{ field: 'payload', message: `must be at most ${config.maxPayloadBytes} bytes of JSON` }],
      }),
    );
  }
  const supersedes = dto.supersedes ?? null;
  if (supersedes !== null && supersedes >= parsed.value.revision) {
    throw validationProblem([
      { field: 'supersedes', message: `must be a revision below key.revision (${parsed.value.revision})` },
    ]);
  }
  if (supersedes !== null && parsed.value.revision - 1 > MAX_SUPERSEDED_REVISIONS) {
    throw validationProblem([
      {
        field: 'supersedes',
        message: `an amendment may supersede at most ${MAX_SUPERSEDED_REVISIONS} older revisions`,
      },
    ]);
  }
  return {
    key: parsed.value,
    operationId: operationIdFor(parsed.value),
    payload,
    requestedLeaseMs: dto.leaseMs ?? null,
    workerId: dto.workerId ?? null,
    supersedes,
  };
}
