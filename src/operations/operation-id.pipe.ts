import { ParseUUIDPipe } from '@nestjs/common';
import { validationProblem } from '../common/validation.js';

/** Validates the `{operationId}` path parameter: a UUID, else 400 `validation` naming it. */
export const operationIdPipe = new ParseUUIDPipe({
  exceptionFactory: () =>
    validationProblem([{ field: 'operationId', message: 'operationId must be a UUID' }]),
});
