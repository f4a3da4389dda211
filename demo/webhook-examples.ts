import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A GitHub user or organisation as webhook payloads embed it (fields the demo reads). */
export interface GithubAccount {
  readonly login: string;
}

/** An issue or a pull request: the fields both share. */
export interface GithubIssueLike {
  readonly number: number;
  readonly title: string;
  readonly body: string | null;
  readonly state: string;
  readonly html_url: string;
  readonly user: GithubAccount | null;
  readonly labels?: readonly { readonly name: string }[];
}

/** The parts of a webhook payload the demo maps (the real payloads carry far more). */
export interface GithubWebhookPayload {
  readonly action?: string;
  readonly issue?: GithubIssueLike;
  readonly pull_request?: GithubIssueLike;
  readonly comment?: {
    readonly id: number;
    readonly body: string | null;
    readonly html_url: string;
    readonly user: GithubAccount | null;
  };
  readonly repository?: { readonly full_name: string; readonly owner: GithubAccount };
  readonly organization?: GithubAccount;
  readonly installation?: { readonly id: number };
  readonly sender?: GithubAccount;
}

/** One example payload from `@octokit/webhooks-examples`, with where it came from. */
export interface WebhookExample {
  /** Webhook event name (`X-GitHub-Event`), e.g. `issues`. */
  readonly event: string;
  /** Which examples file it came from: `api.github.com` or a GHES version such as `ghes-35`. */
  readonly flavour: string;
  readonly payload: GithubWebhookPayload;
}

interface WebhookDefinition {
  readonly name: string;
  readonly examples: readonly GithubWebhookPayload[];
}

/**
 * Loads the example payloads of the given webhook events from the `@octokit/webhooks-examples`
 * package: the api.github.com file first, then the GHES files, each in the package's order
 * (so the result is deterministic). The package ships JSON only, so it is read from disk.
 */
export function loadWebhookExamples(events: readonly string[]): WebhookExample[] {
  const require = createRequire(import.meta.url);
  // `main` is api.github.com/index.json; the other flavours are its siblings.
  const root = dirname(dirname(require.resolve('@octokit/webhooks-examples')));
  const flavours = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'index.json')))
    .map((entry) => entry.name)
    .sort((a, b) => (a === 'api.github.com' ? -1 : b === 'api.github.com' ? 1 : a.localeCompare(b)));
  const wanted = new Set(events);
  const out: WebhookExample[] = [];
  for (const flavour of flavours) {
    const definitions = JSON.parse(
      readFileSync(join(root, flavour, 'index.json'), 'utf8'),
    ) as WebhookDefinition[];
    for (const definition of definitions) {
      if (!wanted.has(definition.name)) continue;
      for (const payload of definition.examples) out.push({ event: definition.name, flavour, payload });
    }
  }
  return out;
}
