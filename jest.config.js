/**
 * Jest runs the TypeScript sources as native ES modules (NestJS 12 and several
 * dependencies ship ESM only), transformed by SWC with decorator metadata.
 * Test tiers are in the file name: *.unit.spec.ts, *.int.spec.ts, *.e2e.spec.ts.
 */
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledDependencies } from './test/support/dependency-bundle.js';
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'es6' },
  },
];
// `npm run test:timings` (LEDGER_TEST_TIMINGS=<file>): per-file wall and CPU seconds, see test/support/timing/.
const timings = process.env.LEDGER_TEST_TIMINGS;
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // Nest and Fastify bundled, as the server runs them: a test file loads a few modules instead of
    // some 900 (see test/support/dependency-bundle.js).
    ...(await bundledDependencies(dirname(fileURLToPath(import.meta.url)))),
    // The protocol's sources, not its build (packages/protocol/dist), so tests need no build.
    '^@operation-ledger/protocol$': '<rootDir>/packages/protocol/src/index.ts',
    // The worker SDK's sources, not its build (packages/client/dist), so tests need no build.
    '^@operation-ledger/client$': '<rootDir>/packages/client/src/index.ts',
    // Its HTTP adapters (package.json `exports` ./nestjs, ./fastify, ./express), from the sources too.
    '^@operation-ledger/client/(nestjs|fastify|express)$':
      '<rootDir>/packages/client/src/idempotent-http/$1.ts',

    // Its broker adapters (package.json subpath exports), from the sources too.
    '^@operation-ledger/client/(bullmq|amqp|jetstream)$': '<rootDir>/packages/client/src/consumers/$1.ts',
    // Its Node transport (package.json `imports`, condition `node`), from the sources too.
    '^#default-sender$': '<rootDir>/packages/client/src/http/undici-sender.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': swc },
  // Jest's node environment with a cache shared by the files of a worker (test/support/ledger-environment.js).
  testEnvironment: timings
    ? '<rootDir>/test/support/timing/timed-environment.js'
    : '<rootDir>/test/support/ledger-environment.js',
};
export default {
  // Hooks start real ledgers and databases; on a loaded 2-core machine 5 s is too little.
  testTimeout: 60_000,
  // Jest's default (cores − 1) is ONE worker on a 2-core machine, although most e2e files spend
  // much of their time waiting (commits, child processes, leases, SSE); a third worker on two cores
  // overlaps more of it (docs/decisions.md "Test workers"). `npx jest -w 1` runs them in series.
  maxWorkers: Math.max(3, availableParallelism()),
  // A worker keeps every test file's modules (Node 20 holds each vm module by a strong handle), so
  // garbage collection costs each later file more; a worker whose heap passed this after a file is
  // replaced by a fresh one (docs/decisions.md "Test workers"; `npm run test:timings` shows gc s
  // and heap MB).
  workerIdleMemoryLimit: '300MB',
  // Longest files first also on a fresh clone, from committed estimates (test/support/timing/sequencer.js).
  testSequencer: '<rootDir>/test/support/timing/sequencer.js',
  reporters: timings ? ['default', '<rootDir>/test/support/timing/timing-reporter.js'] : ['default'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{src,test,packages/*/test}/**/*.unit.spec.ts'] },
    { ...common, displayName: 'int', testMatch: ['<rootDir>/{src,test,packages/*/test}/**/*.int.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/{src,test,packages/*/test}/**/*.e2e.spec.ts'] },
  ],
};
