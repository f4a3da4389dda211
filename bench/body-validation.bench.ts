/**
 * Body validation, in-process (`npm run build && node dist/bench/body-validation.bench.js`): CPU
 * per body of the application's ValidationPipe (compiled check, src/common/compiled-check.ts)
 * against Nest's ValidationPipe with the same options (class-transformer + class-validator), on
 * the hot routes' bodies. Alternating rounds; prints µs of process CPU per body. No database.
 */
import 'reflect-metadata';
import { ValidationPipe, type PipeTransform } from '@nestjs/common';
import {
  flattenValidationErrors,
  ledgerValidationPipe,
  validationProblem,
} from '../src/common/validation.js';
import { ClaimRequestDto } from '../src/operations/claim/claim-request.dto.js';
import { RenewLeaseRequestDto } from '../src/operations/policy-commands/policy-command-requests.dto.js';
import { ConfirmRequestDto } from '../src/operations/worker-steps/confirm-request.dto.js';
import { StartStepRequestDto } from '../src/operations/worker-steps/step-requests.dto.js';

const BODIES = 20_000;
const ROUNDS = 3;

const classValidatorPipe = new ValidationPipe({
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  exceptionFactory: (errors) => validationProblem(flattenValidationErrors(errors)),
});
const compiledPipe = ledgerValidationPipe();

let n = 0;
const CASES: [string, unknown, () => object][] = [
  [
    'claim',
    ClaimRequestDto,
    () => ({
      key: { tenant: 'acme-gmbh', source: 'shopify', action: 'invoice.create', subject: `order:${n++}` },
      payload: { customer: 'c-17', lines: [{ sku: 'A-1', qty: 2 }] },
      leaseMs: 30_000,
      workerId: 'worker-3',
      startStep: 'create-invoice',
    }),
  ],
  ['step start', StartStepRequestDto, () => ({ fencingToken: 1 })],
  [
    'confirm + completeStep',
    ConfirmRequestDto,
    () => ({
      fencingToken: 1,
      destinationRef: 'INV-1',
      outputs: { id: 1 },
      completeStep: { name: 'create-invoice', outputs: { id: 1 } },
    }),
  ],
  ['lease renew', RenewLeaseRequestDto, () => ({ fencingToken: 1, leaseMs: 30_000 })],
];

/** µs of process CPU per body through `pipe`. */
async function cpuPerBody(pipe: PipeTransform, metatype: unknown, make: () => object): Promise<number> {
  const bodies = Array.from({ length: BODIES }, make);
  const start = process.cpuUsage();
  for (const body of bodies) await pipe.transform(body, { type: 'body', metatype: metatype as never });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / BODIES;
}

const rows: string[] = [];
for (const [name, metatype, make] of CASES) {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    a.push(await cpuPerBody(classValidatorPipe, metatype, make));
    b.push(await cpuPerBody(compiledPipe, metatype, make));
  }
  // the first round warms the JIT up: the best of the rest
  const best = (xs: number[]) => Math.min(...xs.slice(1)).toFixed(1);
  rows.push(`| ${name} | ${best(a)} | ${best(b)} |`);
}
console.log('| body | class-validator µs/body | compiled µs/body |\n| :-- | --: | --: |');
console.log(rows.join('\n'));
