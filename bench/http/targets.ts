/** The ledger servers of a run (each its own process and fresh database). */
export type LedgerServerId = 'ledger-pg' | 'ledger-pg-projector-off' | 'ledger-pglite';

/**
 * The server processes of one run; each is started once and serves all rounds of its targets.
 * `<ledger>.a` is the same ledger configuration running the build given with `--ledger-a`
 * (A/B comparison of two builds in the same interleaved rounds).
 */
export type ServerId = BaselineServerId | LedgerServerId | `${LedgerServerId}.a`;

/**
 * The baseline servers (bench/http/servers/). `hand-rolled` and `node-idempotency` run on the
 * ledger's platform (Nest on Fastify), the `-express` twins on Nest's default platform (extra rows).
 */
export type BaselineServerId =
  | 'bare'
  | 'bare-fastify'
  | 'hand-rolled'
  | 'hand-rolled-express'
  | 'node-idempotency'
  | 'node-idempotency-express';

/** Suffix of the targets and servers of the `--ledger-a` build. */
export const BUILD_A_SUFFIX = '.a';

/** What one operation of a target does (see bench/http/target-ops.ts). */
export type OpKind =
  | 'bare'
  | 'hand-rolled-new'
  | 'hand-rolled-duplicate'
  | 'hand-rolled-cycle'
  | 'ni-new'
  | 'ni-replay'
  | 'ledger-new'
  | 'ledger-duplicate'
  | 'ledger-cycle'
  | 'ledger-one-step'
  | 'ledger-sdk-one-step'
  | 'ledger-sdk-fetch-one-step'
  | 'ledger-sdk-batch-one-step';

/** The one-step jobs (they need the ledger's round-trip shortcuts; see one-step-probe.ts). */
export const isOneStep = (op: OpKind): boolean => op === 'ledger-one-step' || op.startsWith('ledger-sdk-');

/** One row of the results table. */
export interface Target {
  readonly id: string;
  readonly label: string;
  readonly server: ServerId;
  readonly op: OpKind;
  /** HTTP requests per operation (a cycle's ops/s counts cycles). */
  readonly requests: number;
}

function ledger(server: ServerId, prefix: string, what: string, oneStep: boolean): Target[] {
  const rows: Target[] = [
    { id: `${prefix}-new`, label: `${what}: new-key claim`, server, op: 'ledger-new', requests: 1 },
    { id: `${prefix}-dup`, label: `${what}: duplicate claim`, server, op: 'ledger-duplicate', requests: 1 },
    {
      id: `${prefix}-cycle`,
      label: `${what}: claim → step start → confirm`,
      server,
      op: 'ledger-cycle',
      requests: 3,
    },
  ];
  if (oneStep) {
    rows.push({
      id: `${prefix}-one-step`,
      label: `${what}: one-step job (claim+startStep, confirm+completeStep)`,
      server,
      op: 'ledger-one-step',
      requests: 2,
    });
    rows.push({
      id: `${prefix}-sdk-one-step`,
      label: `${what}: one-step job through the SDK (runOnce with firstStep)`,
      server,
      op: 'ledger-sdk-one-step',
      requests: 2,
    });
    rows.push({
      id: `${prefix}-sdk-fetch-one-step`,
      label: `${what}: one-step job through the SDK on fetch (its transport before undici)`,
      server,
      op: 'ledger-sdk-fetch-one-step',
      requests: 2,
    });
    rows.push({
      id: `${prefix}-sdk-batch-one-step`,
      label: `${what}: one-step job through one SDK client with batchClaims (claims batched while one is in flight)`,
      server,
      op: 'ledger-sdk-batch-one-step',
      requests: 2,
    });
  }
  return rows;
}

function handRolled(server: BaselineServerId, prefix: string, what: string): Target[] {
  return [
    { id: `${prefix}-new`, label: `${what}: new key`, server, op: 'hand-rolled-new', requests: 1 },
    { id: `${prefix}-dup`, label: `${what}: duplicate`, server, op: 'hand-rolled-duplicate', requests: 1 },
    {
      id: `${prefix}-cycle`,
      label: `${what}: claim + complete (2 requests)`,
      server,
      op: 'hand-rolled-cycle',
      requests: 2,
    },
  ];
}

function nodeIdempotency(server: BaselineServerId, prefix: string, what: string): Target[] {
  return [
    { id: `${prefix}-new`, label: `${what}: new key`, server, op: 'ni-new', requests: 1 },
    { id: `${prefix}-replay`, label: `${what}: replay`, server, op: 'ni-replay', requests: 1 },
  ];
}

/** Every target of `npm run bench:http`, in table order. */
export const TARGETS: readonly Target[] = [
  { id: 'bare', label: 'bare Nest 12 express endpoint', server: 'bare', op: 'bare', requests: 1 },
  {
    id: 'bare-fastify',
    label: "bare Nest 12 fastify endpoint (the ledger's platform)",
    server: 'bare-fastify',
    op: 'bare',
    requests: 1,
  },
  ...handRolled('hand-rolled', 'hr', 'hand-rolled Nest-Fastify + ValidationPipe + INSERT … ON CONFLICT'),
  ...nodeIdempotency('node-idempotency', 'ni', '@node-idempotency/nestjs on Nest-Fastify + Redis'),
  ...ledger('ledger-pg', 'pg', 'ledger on PostgreSQL, projector on', true),
  ...ledger('ledger-pg-projector-off', 'pg-off', 'ledger on PostgreSQL, projector off', false),
  ...ledger('ledger-pglite', 'pglite', 'ledger on embedded PGlite, projector on', true),
  ...handRolled('hand-rolled-express', 'hrx', 'extra: the hand-rolled endpoint on Nest-express'),
  ...nodeIdempotency('node-idempotency-express', 'nix', 'extra: @node-idempotency/nestjs on Nest-express'),
];

/** Id of one of {@link TARGETS}, e.g. `pg-new`. */
export type TargetId = string;

/**
 * The target with id `id`; `<ledger target>.a` is its twin on the `--ledger-a` build (server
 * `<ledger server>.a`, label marked `[A]`). @throws Error for an unknown id.
 */
export function targetById(id: string): Target {
  const twin = id.endsWith(BUILD_A_SUFFIX);
  const base = twin ? id.slice(0, -BUILD_A_SUFFIX.length) : id;
  const t = TARGETS.find((x) => x.id === base);
  if (!t || (twin && !t.server.startsWith('ledger'))) throw new Error(`unknown target ${id}`);
  if (!twin) return t;
  return {
    ...t,
    id,
    label: `${t.label} [A]`,
    server: `${t.server as LedgerServerId}${BUILD_A_SUFFIX}`,
  };
}

/** `targets` with, after each ledger target, its twin on the `--ledger-a` build. */
export function withBuildA(targets: readonly Target[]): Target[] {
  return targets.flatMap((t) =>
    t.server.startsWith('ledger') ? [t, targetById(`${t.id}${BUILD_A_SUFFIX}`)] : [t],
  );
}
