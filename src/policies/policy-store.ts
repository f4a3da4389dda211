import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { NO_STREAM, WrongExpectedVersionError, type EventStore } from '../event-store/event-store.port.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import { DEFAULT_POLICY, type ActionPolicy } from '../ledger/index.js';
import { ANY_ACTION, POLICY_SET_EVENT, policyStreamName } from './policy-stream.js';

/** A policy in force: the document, its version (0 = the built-in default) and where it came from. */
export interface PolicyVersion {
  readonly tenant: string;
  readonly action: string;
  readonly policy: ActionPolicy;
  readonly version: number;
  /** `action` (its own policy), `tenant-default` (the tenant's `*` policy) or `default`. */
  readonly source: 'action' | 'tenant-default' | 'default';
  readonly setBy: string | null;
  readonly reason: string | null;
  readonly setAt: string | null;
}

/** A policy version was written concurrently; re-read and retry (answered 409). */
export class PolicyVersionConflictError extends Error {
  constructor(
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(`policy version is ${actualVersion}, not ${expectedVersion}`);
  }
}

/** How long a looked-up policy is cached per process, ms. Replicas see a change within this. */
export const POLICY_CACHE_MS = 1_000;

/**
 * Action policies as event streams (`policy-<tenant>/<action>`). Lookup order: the action's own,
 * the tenant's `*`, the built-in default; cached for {@link POLICY_CACHE_MS}, and concurrent
 * lookups of one policy share one read.
 */
@Injectable()
export class PolicyStore {
  private readonly cache = new Map<string, { at: number; value: PolicyVersion }>();
  /** Lookups being read now, by cache key; a failed one is dropped, so the next lookup reads again. */
  private readonly reading = new Map<string, Promise<PolicyVersion>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The policy in force for `tenant` + `action`. @throws EventStoreUnavailableError. */
  async policyFor(tenant: string, action: string): Promise<PolicyVersion> {
    const cacheKey = `${tenant}\u0000${action}`;
    const hit = this.cache.get(cacheKey);
    const now = this.clock.now();
    if (hit && now - hit.at < POLICY_CACHE_MS) return hit.value;
    const shared = this.reading.get(cacheKey);
    if (shared) return shared;
    const lookup = this.lookUp(tenant, action).then((value) => {
      if (this.reading.get(cacheKey) === lookup) this.cache.set(cacheKey, { at: now, value });
      return value;
    });
    this.reading.set(cacheKey, lookup);
    const forget = () => {
      if (this.reading.get(cacheKey) === lookup) this.reading.delete(cacheKey);
    };
    lookup.then(forget, forget);
    return lookup;
  }

  private async lookUp(tenant: string, action: string): Promise<PolicyVersion> {
    return (
      (await this.read(tenant, action, 'action')) ??
      (action === ANY_ACTION ? null : await this.read(tenant, ANY_ACTION, 'tenant-default')) ??
      ({
        tenant,
        action,
        policy: DEFAULT_POLICY,
        version: 0,
        source: 'default',
        setBy: null,
        reason: null,
        setAt: null,
      } as const)
    );
  }

  /** Every version of one policy stream, oldest first. */
  async history(tenant: string, action: string): Promise<PolicyVersion[]> {
    const events = await this.store.read(policyStreamName(tenant, action));
    return events.map((e) => toVersion(tenant, action, 'action', e.streamPosition, e.data));
  }

  /**
   * Records a new version. `expectedVersion` (the version the operator edited) guards against
   * lost updates; without it the write goes on top of whatever is there.
   * @throws PolicyVersionConflictError; EventStoreUnavailableError.
   */
  async setPolicy(
    tenant: string,
    action: string,
    policy: ActionPolicy,
    by: { actor: string; reason: string },
    expectedVersion?: number,
  ): Promise<PolicyVersion> {
    const stream = policyStreamName(tenant, action);
    let expected: bigint | typeof NO_STREAM;
    if (expectedVersion === undefined) {
      const current = await this.store.read(stream);
      expected = current.length ? current[current.length - 1]!.streamPosition : NO_STREAM;
    } else {
      expected = expectedVersion === 0 ? NO_STREAM : BigInt(expectedVersion - 1);
    }
    const data = {
      tenant,
      action,
      policy,
      actor: by.actor,
      reason: by.reason,
      at: new Date(this.clock.now()).toISOString(),
    };
    try {
      const r = await this.store.append(
        stream,
        [{ id: randomUUID(), type: POLICY_SET_EVENT, data }],
        expected,
      );
      this.cache.clear();
      this.reading.clear(); // a lookup that started before this version must not be cached or shared
      return toVersion(tenant, action, 'action', r.nextExpectedRevision, data);
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) {
        const actual = err.actual === NO_STREAM ? 0 : Number(err.actual) + 1;
        throw new PolicyVersionConflictError(expectedVersion ?? -1, actual);
      }
      throw err;
    }
  }

  private async read(tenant: string, action: string, source: PolicyVersion['source']) {
    const events = await this.store.read(policyStreamName(tenant, action));
    const last = events[events.length - 1];
    return last ? toVersion(tenant, action, source, last.streamPosition, last.data) : null;
  }
}

function toVersion(
  tenant: string,
  action: string,
  source: PolicyVersion['source'],
  revision: bigint,
  data: Record<string, unknown>,
): PolicyVersion {
  // Stored documents were validated when written; defaults fill fields added since. Never fall back
  // to the default policy wholesale: that could silently re-allow replay of a payment.
  const policy = { ...DEFAULT_POLICY, ...(data.policy as Partial<ActionPolicy>) };
  return {
    tenant,
    action,
    policy,
    version: Number(revision) + 1,
    source,
    setBy: (data.actor as string) ?? null,
    reason: (data.reason as string) ?? null,
    setAt: (data.at as string) ?? null,
  };
}
