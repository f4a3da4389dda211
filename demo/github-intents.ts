import { keyText, type Intent, type Json, type OperationKey, type TicketDraft } from './intent.js';
import { loadWebhookExamples, type GithubWebhookPayload, type WebhookExample } from './webhook-examples.js';

/** Events that become `ticket.create` (one ticket per issue / pull request event). */
export const TICKET_EVENTS = ['issues', 'pull_request'] as const;
/** Events that become `comment.mirror` (one mirrored comment per comment event). */
export const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment'] as const;
const ALL_EVENTS: readonly string[] = [...TICKET_EVENTS, ...COMMENT_EVENTS];

/**
 * The tenant of a delivery: the organisation when there is one, else the GitHub App installation,
 * else the repository owner. Prefixed so an org and a user with the same login stay apart.
 */
export function tenantOf(payload: GithubWebhookPayload): string | null {
  if (payload.organization?.login) return `org:${payload.organization.login}`;
  if (payload.installation?.id !== undefined) return `installation:${payload.installation.id}`;
  if (payload.repository?.owner.login) return `user:${payload.repository.owner.login}`;
  return null;
}

/**
 * Maps one webhook example to its business intent, or null when it does not map cleanly
 * (no action, no repository, no issue/PR). Key:
 * - `ticket.create`, subject `<owner>/<repo>#<number>:<action>` for issues and pull requests;
 * - `comment.mirror`, subject `<owner>/<repo>#<number>/comments/<comment id>:<action>` for comments.
 * The payload holds business fields only — never transport ids or timestamps that differ between
 * redeliveries — so every delivery of one intent fingerprints the same.
 */
export function intentFromExample(example: WebhookExample): Intent | null {
  const p = example.payload;
  const item = p.issue ?? p.pull_request;
  const tenant = tenantOf(p);
  if (!p.action || !p.repository || !item || tenant === null) return null;
  const repository = p.repository.full_name;
  const common = {
    event: example.event,
    eventAction: p.action,
    repository,
    number: item.number,
    actor: p.sender?.login ?? null,
  };
  if ((COMMENT_EVENTS as readonly string[]).includes(example.event)) {
    if (!p.comment) return null;
    const key: OperationKey = {
      tenant,
      source: 'github',
      action: 'comment.mirror',
      subject: `${repository}#${item.number}/comments/${p.comment.id}:${p.action}`,
    };
    const payload = {
      ...common,
      issueTitle: item.title,
      commentId: p.comment.id,
      commentBody: p.comment.body,
      commentAuthor: p.comment.user?.login ?? null,
      commentUrl: p.comment.html_url,
    };
    return { key, payload, ticket: ticketDraft(key, payload), event: example.event };
  }
  const key: OperationKey = {
    tenant,
    source: 'github',
    action: 'ticket.create',
    subject: `${repository}#${item.number}:${p.action}`,
  };
  const payload = {
    ...common,
    title: item.title,
    body: item.body,
    state: item.state,
    author: item.user?.login ?? null,
    url: item.html_url,
    labels: (item.labels ?? []).map((label) => label.name),
  };
  return { key, payload, ticket: ticketDraft(key, payload), event: example.event };
}

/**
 * What the worker sends to the ticket system for an intent. `externalRef` is the business key in
 * one string — unique per intent and known before the call, so recovery can look the ticket up.
 */
export function ticketDraft(key: OperationKey, payload: { readonly [member: string]: Json }): TicketDraft {
  const where = `${String(payload.repository)}#${String(payload.number)}`;
  const externalRef = `${key.tenant}/${key.source}/${key.action}/${key.subject}`;
  if (key.action === 'comment.mirror') {
    return {
      externalRef,
      title: `[${where}] comment ${String(payload.commentId)} ${String(payload.eventAction)}`,
      body: `${String(payload.commentBody ?? '')}\n\n— ${String(payload.commentAuthor)} on "${String(payload.issueTitle)}" ${String(payload.commentUrl)}`,
    };
  }
  return {
    externalRef,
    title: `[${where}] ${String(payload.event)} ${String(payload.eventAction)}: ${String(payload.title)}`,
    body: `${String(payload.body ?? '')}\n\n${String(payload.url)} (by ${String(payload.actor)})`,
  };
}

/** The intents the examples package yields, and how the examples folded into them. */
export interface IntentCatalogue {
  /** Distinct intents, interleaved across event kinds (so a `--limit` keeps every kind). */
  readonly intents: readonly Intent[];
  /** Examples read from the package for the mapped events. */
  readonly examples: number;
  /** Examples that repeat an intent already seen with an identical payload (merged). */
  readonly repeatedExamples: number;
  /**
   * Examples whose key repeats an intent with a *different* payload (e.g. a GHES variant with a
   * null body). Skipped, so that only the deliberately injected conflicts conflict.
   */
  readonly skippedVariants: number;
  /** Examples that do not map cleanly (no action, repository or issue). */
  readonly unmapped: number;
}

/**
 * Reads issues, pull_request, issue_comment and pull_request_review_comment examples from
 * `@octokit/webhooks-examples` and folds them into distinct intents (first example per key wins).
 */
export function loadGithubIntents(): IntentCatalogue {
  const examples = loadWebhookExamples(ALL_EVENTS);
  const byKey = new Map<string, Intent>();
  let repeatedExamples = 0;
  let skippedVariants = 0;
  let unmapped = 0;
  for (const example of examples) {
    const intent = intentFromExample(example);
    if (!intent) {
      unmapped++;
      continue;
    }
    const id = keyText(intent.key);
    const seen = byKey.get(id);
    if (!seen) byKey.set(id, intent);
    else if (JSON.stringify(seen.payload) === JSON.stringify(intent.payload)) repeatedExamples++;
    else skippedVariants++;
  }
  return {
    intents: interleaveByEvent([...byKey.values()]),
    examples: examples.length,
    repeatedExamples,
    skippedVariants,
    unmapped,
  };
}

/** Round-robin over event kinds, each kind keeping its package order. */
function interleaveByEvent(intents: readonly Intent[]): Intent[] {
  const queues = ALL_EVENTS.map((event) => intents.filter((i) => i.event === event));
  const out: Intent[] = [];
  for (let i = 0; out.length < intents.length; i++) {
    for (const queue of queues) if (i < queue.length) out.push(queue[i]!);
  }
  return out;
}
