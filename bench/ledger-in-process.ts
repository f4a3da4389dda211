import type { INestApplication } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ProblemException } from '../src/common/problem.exception.js';
import type { LedgerConfig } from '../src/config/ledger-config.js';
import { prepareClaim } from '../src/operations/claims/claim-input.js';
import { ClaimOperationCommand } from '../src/operations/claims/claim-operation.command.js';
import { newRequestContext } from '../src/operations/core/event-metadata.js';
import type { ClaimRequestDto } from '../src/operations/dto/claim-request.dto.js';
import { answerForError, type HttpAnswer } from '../src/operations/http/http-answer.js';
import {
  RunWorkerCommand,
  type WorkerCommandInput,
} from '../src/operations/worker/worker-command.command.js';
import type { LedgerDriver } from './ledger-driver.js';

/**
 * Drives the ledger's handlers in-process, without HTTP: a claim is `prepareClaim` (key check,
 * RFC 8785 fingerprint, operationId) plus `ClaimOperationCommand` on the app's CommandBus, as the
 * controller does after DTO validation (which is skipped here); step start and confirm are
 * `RunWorkerCommand`s. Refusals come back as their problem answer instead of throwing. `app` must
 * be initialised (`app.init()` or `app.listen()`), which registers the command handlers.
 */
export function inProcessDriver(app: INestApplication, config: LedgerConfig): LedgerDriver {
  const bus = app.get(CommandBus);
  const worker = async (operationId: string, input: WorkerCommandInput): Promise<HttpAnswer> => {
    try {
      return await bus.execute(new RunWorkerCommand(operationId, input, newRequestContext()));
    } catch (error) {
      if (error instanceof ProblemException) return answerForError(error);
      throw error;
    }
  };
  return {
    async claim(key, payload) {
      const dto = { key, payload } as unknown as ClaimRequestDto;
      return bus.execute(new ClaimOperationCommand(prepareClaim(dto, config), newRequestContext()));
    },
    startStep: (operationId, fencingToken, step) =>
      worker(operationId, { type: 'StartStep', fencingToken, step }),
    confirm: (operationId, fencingToken, destinationRef) =>
      worker(operationId, { type: 'ConfirmOperation', fencingToken, destinationRef, outputs: null }),
  };
}
