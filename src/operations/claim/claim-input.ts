import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { flattenValidationErrors } from '../../common/validation.js';
import { unstorableStrings } from '../../common/unstorable-strings.js';
import { invalid, type Checked, type ClaimRequest, type JsonValue } from '../../ledger/index.js';
import { ClaimRequestDto } from './claim-request.dto.js';

/**
 * Validates one batch item (already parsed JSON) with the same DTO and rules as the body of
 * POST /v1/claims: a JSON object, class-validator, then strings the database can store.
 * @returns the DTO, or an `invalid` rejection naming the fields (400 `validation` / `invalid-key`).
 */
export function validateClaimBody(body: unknown): Checked<ClaimRequestDto> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid({ field: '', message: 'a claim must be a JSON object' });
  }
  const dto = plainToInstance(ClaimRequestDto, body);
  const errors = validateSync(dto, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  if (errors.length > 0) return invalid(...flattenValidationErrors(errors));
  const unstorable = unstorableStrings(body);
  if (unstorable.length > 0) return invalid(...unstorable);
  return { ok: true, value: dto };
}

/**
 * The claim request of a validated body, as plain data for the domain's checks. The payload's
 * size is measured here, once: the UTF-8 bytes of its JSON text.
 */
export function claimRequestOf(dto: ClaimRequestDto): ClaimRequest {
  const payload = dto.payload as JsonValue | undefined;
  return {
    key: dto.key,
    payload,
    payloadBytes: payload === undefined ? 0 : Buffer.byteLength(JSON.stringify(payload), 'utf8'),
    leaseMs: dto.leaseMs ?? null,
    workerId: dto.workerId ?? null,
    supersedes: dto.supersedes ?? null,
  };
}
