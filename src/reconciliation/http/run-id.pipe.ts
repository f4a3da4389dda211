import { ParseUUIDPipe } from '@nestjs/common';
import { validationProblem } from '../../common/validation.js';

/** Validates the `{id}` path parameter of a reconciliation: a UUID, else 400 naming `id`. */
export const runIdPipe = new ParseUUIDPipe({
  exceptionFactory: () =>
    validationProblem([{ field: 'id', message: 'id must be a reconciliation id (UUID)' }]),
});
