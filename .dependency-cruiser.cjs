/**
 * Architecture rules checked in CI (`npm run lint`); docs/architecture.md draws the layers. The
 * domain (src/ledger) is pure TypeScript: it may import only itself, the protocol package, Node's
 * crypto/buffer and the small pure libraries it is built on. src/common is the ground floor: it imports no feature.
 */
/**
 * The rooms of src/, each with the rooms it may import (besides itself and libraries). The list
 * is the layering, lowest first: the ground floor (ledger, config, common), the event store,
 * the shared services (auth, observability with the Prometheus registry under
 * observability/prometheus, process), policies, the write side (operations) and the read side
 * (projections, which owns the read-model tables and publishes the status view's reads in
 * status-view.ts), then the rooms built on both (jobs, reconciliation) and the edges (backup,
 * health, console, admin-cli). Nothing imports a room above it, so the folder graph has no arrow
 * back up — which the file-level `no-circular` rule cannot see. Rooms publish into the
 * Prometheus registry (the read models register their collectors); the registry observes no room.
 * The composition roots (src/*.ts) import every room; of the rooms only admin-cli, itself a
 * program, imports one of them (ledger-schemas.ts). src/ledger and src/common have their own rules;
 * docs/decisions.md "Rooms own their tables" says why the registry sits low.
 */
const GROUND = ['ledger', 'config', 'common'];
const STORE = [...GROUND, 'event-store'];
const SHARED = [...STORE, 'auth'];
const ROOMS = {
  config: [],
  'event-store': GROUND,
  auth: STORE,
  observability: SHARED,
  process: GROUND,
  policies: SHARED,
  operations: [...SHARED, 'observability', 'policies'],
  projections: [...SHARED, 'observability'],
  jobs: [...SHARED, 'observability', 'policies', 'operations', 'projections'],
  reconciliation: [...SHARED, 'observability', 'policies', 'operations', 'projections'],
  backup: SHARED,
  health: SHARED,
  console: SHARED,
  'admin-cli': [...SHARED, 'ledger-schemas.ts'],
};

// A new folder of src/ must take its place in the layering before the check passes (run from
// the repository root, as `npm run lint:deps` does).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file
const { readdirSync } = require('node:fs');
const unlisted = readdirSync('src', { withFileTypes: true })
  .filter(
    (entry) => entry.isDirectory() && !['ledger', 'common'].includes(entry.name) && !(entry.name in ROOMS),
  )
  .map((entry) => `src/${entry.name}`);
if (unlisted.length) throw new Error(`.dependency-cruiser.cjs: place ${unlisted.join(', ')} in ROOMS`);

/** One rule per room: it imports only the rooms listed for it. */
const roomRules = Object.entries(ROOMS).map(([room, below]) => ({
  name: `room-${room}-imports-only-below`,
  comment: `src/${room} may import only ${below.join(', ')} (the room layering: ROOMS in .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: `^src/${room}/` },
  to: {
    path: '^src/',
    pathNot: [
      `^src/${room}/`,
      ...below.map((r) => (r.endsWith('.ts') ? `^src/${r.replace('.', '\\.')}$` : `^src/${r}/`)),
    ],
  },
}));

module.exports = {
  forbidden: [
    ...roomRules,
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
        'packages/client (the worker SDK) imports nothing from the server and no npm package but the protocol, undici (its Node transport, docs/decisions.md), structured-headers (the Idempotency-Key header) and lru-cache (the replay cache)',
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
          '^node_modules/(undici|structured-headers|lru-cache)/',
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
      name: 'cli-uses-sdk-and-protocol',
      comment:
        'packages/cli (the operator CLI) talks to the ledger through the SDK and the protocol only: nothing of the server, the console, tests or benches',
      severity: 'error',
      from: { path: '^packages/cli/src' },
      to: { path: '^(src|test|bench|demo|packages/console)/' },
    },
    {
      name: 'console-runs-in-browsers',
      comment:
        'packages/console (the web console) is bundled for browsers: it imports itself, the protocol and its UI libraries, no node: module, nothing of the server and not the Node SDK',
      severity: 'error',
      from: { path: '^packages/console/src' },
      to: {
        pathNot: [
          '^packages/console/src',
          '^packages/protocol/src',
          '^node_modules/(preact|uplot|@tanstack/table-core|eventsource-parser)/',
        ],
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
