import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { LedgerConfig } from '../../config/ledger-config.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { assertStorable, flattenValidationErrors, validationProblem } from '../../common/validation.js';
import {
  DEFAULT_LEASE_MS,
  operationIdFor,
  parseOperationKey,
  payloadFingerprint,
  type ClaimOperation,
  type JsonValue,
} from '../../ledger/index.js';
import { ClaimRequestDto } from '../dto/claim-request.dto.js';

/** A validated claim, ready for the decider except for the server time. */
export type PreparedClaim = Omit<ClaimOperation, 'now'>;

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
 * Turns a validated claim DTO into the domain command: key checked by the domain, payload
 * required and within `maxPayloadBytes` (its JSON size), fingerprint (RFC 8785 + SHA-256),
 * operationId (UUID v5), default lease.
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
  return {
    type: 'ClaimOperation',
    key: parsed.value,
    operationId: operationIdFor(parsed.value),
    payload,
    fingerprint: payloadFingerprint(payload),
    leaseMs: dto.leaseMs ?? DEFAULT_LEASE_MS,
    workerId: dto.workerId ?? null,
  };
}
