/**
 * Architecture rules checked in CI (`npm run lint`); docs/architecture.md draws the layers. The
 * domain (src/ledger) is pure TypeScript: it may import only itself, the protocol package, Node's
 * crypto/buffer and the small pure libraries it is built on. src/common is the ground floor: it imports no feature.
 */
module.exports = {
  forbidden: [
    {
      name: 'ledger-is-pure',
      comment: 'src/ledger imports nothing from Nest, pg, PGlite, the event store or HTTP code',
      severity: 'error',
      from: { path: '^src/ledger/' },
      to: {
        pathNot: [
          '^src/ledger/',
          '^packages/protocol/src/',
          '^node_modules/canonicalize/',
          '^(node:)?(crypto|buffer)$',
        ],
      },
    },
    {
      name: 'common-is-ground-floor',
      comment:
        'src/common holds what every feature shares (problems, validation, clock, JSON body); it imports no feature folder, only itself, the event-store port (whose outage error it renders) and libraries',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: ['^src/common/', '^src/event-store/event-store\\.port\\.ts$'] },
    },
    {
      name: 'operations-no-arrow-back-up',
      comment:
        'the shared files of src/operations (directly in it) import no slice: each slice maps its own answers (docs/architecture.md "Application"); operations.module.ts, the wiring, is the one file that lists them',
      severity: 'error',
      from: { path: '^src/operations/[^/]+$', pathNot: '^src/operations/operations\\.module\\.ts$' },
      to: { path: '^src/operations/[^/]+/' },
    },
    {
      name: 'operations-slices-are-independent',
      comment:
        'a slice of src/operations imports no other slice: what two slices share moves up into src/operations',
      severity: 'error',
      from: { path: '^src/operations/([^/]+)/' },
      to: { path: '^src/operations/[^/]+/', pathNot: '^src/operations/$1/' },
    },
    {
      name: 'protocol-imports-nothing',
      comment:
        'packages/protocol (key rules, operationId, problem codes, wire types) runs in Node and in browsers alike: it imports only itself, no node: module and no npm package',
      severity: 'error',
      from: { path: '^packages/protocol/src' },
      to: { pathNot: ['^packages/protocol/src'] },
    },
    {
      name: 'client-is-standalone',
      comment:
        'packages/client (the worker SDK) imports nothing from the server and no npm package but the protocol, undici (its Node transport, docs/decisions.md) and structured-headers (the Idempotency-Key header)',
      severity: 'error',
      from: {
        path: '^packages/client/src',
        pathNot: [
          '^packages/client/src/idempotent-http/(nestjs|fastify|express)\\.ts$',
          '^packages/client/src/consumers/(bullmq|amqp|jetstream)\\.ts$',
        ],
      },
      to: {
        pathNot: [
          '^packages/client/src',
          '^packages/protocol/src',
          '^(node:)?[a-z_]+$',
          '^node_modules/(undici|structured-headers)/',
        ],
      },
    },
    {
      name: 'client-adapters-use-optional-peers',
      comment:
        'the HTTP adapters of the SDK (subpath exports) import only their framework, an optional peer dependency (docs/protect-your-api.md)',
      severity: 'error',
      from: { path: '^packages/client/src/idempotent-http/(nestjs|fastify|express)\\.ts$' },
      to: {
        pathNot: [
          '^packages/client/src',
          '^(node:)?[a-z_]+$',
          '^node_modules/(@nestjs/(common|core)|rxjs|fastify|express|@types/express(-serve-static-core)?)/',
        ],
      },
    },
    {
      name: 'broker-adapters-import-their-broker-only',
      comment:
        'each broker adapter of packages/client (a subpath export) imports the SDK and its own optional peer dependency only, so the SDK never loads a broker library',
      severity: 'error',
      from: { path: '^packages/client/src/consumers/(bullmq|amqp|jetstream)\\.ts$' },
      to: {
        pathNot: ['^packages/client/src', '^(node:)?[a-z_]+$', '^node_modules/(bullmq|amqplib|nats)/'],
      },
    },
    {
      name: 'src-uses-packages-by-name',
      comment:
        'src imports nothing from packages/ by path, only by package name (`@operation-ledger/protocol`, `@operation-ledger/client` if ever)',
      severity: 'error',
      from: { path: '^src' },
      to: { path: '^packages/', dependencyTypesNot: ['aliased-tsconfig', 'aliased-workspace', 'npm'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      from: { path: '^src' },
      to: { path: '^(test|bench|demo)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
