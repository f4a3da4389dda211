import type { INestApplication } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ProblemException } from '../src/common/problem.exception.js';
import type { LedgerConfig } from '../src/config/ledger-config.js';
import type { JsonValue } from '../src/ledger/index.js';
import { claimRequestOf } from '../src/operations/claim/claim-request.dto.js';
import { ClaimOperationCommand } from '../src/operations/claim/claim-operation.command.js';
import type { ClaimRequestDto } from '../src/operations/claim/claim-request.dto.js';
import { newRequestContext } from '../src/operations/request-context.js';
import { claimAnswer } from '../src/operations/claim/claim-http-answer.js';
import { errorAnswer, type HttpAnswer } from '../src/operations/problem-answer.js';
import { workerAnswer } from '../src/operations/worker-steps/worker-http-answer.js';
import {
  RunWorkerCommand,
  type WorkerCommandInput,
} from '../src/operations/worker-steps/run-worker-command.command.js';
import type { LedgerDriver } from './ledger-driver.js';

/**
 * Drives the ledger's handlers in-process, without HTTP: a claim is `claimRequestOf` plus
 * `ClaimOperationCommand` on the app's CommandBus, as the controller does after DTO validation
 * (which is skipped here); step start and confirm are `RunWorkerCommand`s (with the round-trip
 * shortcuts `startStep` / `completeStep` when asked). Results are mapped
 * to answers by the routes' mapping (each slice's `*-http-answer.ts`). `app` must
 * be initialised (`app.init()` or `app.listen()`), which registers the command handlers.
 */
export function inProcessDriver(app: INestApplication, _config: LedgerConfig): LedgerDriver {
  const bus = app.get(CommandBus);
  const worker = async (operationId: string, input: WorkerCommandInput): Promise<HttpAnswer> => {
    try {
      return workerAnswer(
        operationId,
        await bus.execute(new RunWorkerCommand(operationId, input, newRequestContext())),
      );
    } catch (error) {
      if (error instanceof ProblemException) return errorAnswer(error);
      throw error;
    }
  };
  return {
    async claim(key, payload, startStep) {
      const dto = { key, payload, ...(startStep ? { startStep } : {}) } as unknown as ClaimRequestDto;
      return claimAnswer(
        await bus.execute(new ClaimOperationCommand(claimRequestOf(dto), newRequestContext())),
      );
    },
    startStep: (operationId, fencingToken, step) =>
      worker(operationId, { type: 'StartStep', fencingToken, step }),
    confirm: (operationId, fencingToken, destinationRef, completeStep) =>
      worker(operationId, {
        type: 'ConfirmOperation',
        fencingToken,
        destinationRef,
        outputs: null,
        completeStep: completeStep
          ? { step: completeStep.name, outputs: completeStep.outputs as JsonValue }
          : null,
      }),
  };
}
