import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { validationProblem } from '../../common/validation.js';
import type { RunNotFound, UploadRefusal } from '../upload-refusal.js';

/** 404 `not-found` for a run id that does not exist in the tenant (or exists in another). */
export function runNotFound({ id }: RunNotFound): ProblemException {
  return new ProblemException(problem('not-found', 404, `no reconciliation ${id} in this tenant`));
}

/**
 * The problem+json (RFC 9457) an upload's refusal is answered with, thrown by the controller:
 * 400 `validation` / `upload-interrupted`, 404, 409 `not-awaiting-source` / `upload-abandoned`,
 * 413 `payload-too-large` / `record-too-large`, 415, 422 `invalid-upload` (docs/reconciliation.md).
 */
export function uploadRefusalProblem(refusal: UploadRefusal): ProblemException {
  switch (refusal.kind) {
    case 'run-not-found':
      return runNotFound(refusal);
    case 'invalid-query':
      return validationProblem(refusal.errors);
    case 'not-awaiting-source':
      return new ProblemException(
        problem(
          'not-awaiting-source',
          409,
          `reconciliation ${refusal.id} is ${refusal.status}; source intents are taken only while it is awaiting_source (create it with awaitSource=true)`,
          {
            title: 'The reconciliation does not wait for source intents',
          },
        ),
      );
    case 'upload-abandoned':
      return new ProblemException(
        problem(
          'upload-abandoned',
          409,
          `reconciliation ${refusal.id} was ${refusal.status ?? 'removed'} while its upload came in${refusal.error ? ` (${refusal.error})` : ''}; upload the file again`,
        ),
      );
    case 'unsupported-media': {
      const { field, detail } = refusal;
      return new ProblemException(
        problem('unsupported-media-type', 415, detail, { errors: [{ field, message: detail }] }),
      );
    }
    case 'invalid-upload': {
      const { errors, what } = refusal;
      const detail = `the ${what} has rows that cannot be read: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
      return new ProblemException(problem('invalid-upload', 422, detail, { errors }));
    }
    case 'upload-too-large':
      return new ProblemException(
        problem('payload-too-large', 413, `the upload exceeds ${refusal.limit}`, {
          errors: [{ field: 'body', message: `at most ${refusal.limit}` }],
        }),
      );
    case 'record-too-large': {
      const message = `longer than ${refusal.limit} (LEDGER_RECONCILIATION_MAX_RECORD_BYTES)`;
      return new ProblemException(
        problem(
          'record-too-large',
          413,
          `record ${refusal.line} of the upload is ${message}; nothing was kept`,
          {
            errors: [{ field: `rows[${refusal.line}]`, message }],
          },
        ),
      );
    }
    case 'over-tenant-bound': {
      const { tenant, limit, setting, kept } = refusal;
      return new ProblemException(
        problem(
          'payload-too-large',
          413,
          `tenant ${tenant} may keep at most ${limit} of reconciliation uploads (${setting}); its runs keep ${kept} ` +
            'and this upload goes past it. Nothing of it was kept; retry once earlier runs finished (their rows are then removed)',
          { errors: [{ field: 'body', message: `at most ${limit} per tenant (${setting})` }] },
        ),
      );
    }
    case 'upload-interrupted':
      // Nobody may be left to read it; it keeps the log from calling the client's disconnect a
      // server error.
      return new ProblemException(
        problem(
          'upload-interrupted',
          400,
          'the request ended before its body was complete; nothing was kept',
        ),
      );
  }
}
