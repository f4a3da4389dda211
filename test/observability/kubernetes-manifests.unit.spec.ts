// deploy/kubernetes: every manifest validates against the Kubernetes OpenAPI schemas bundled in
// the kubernetes-models package (no network), and the pieces fit together: probes on the health
// routes, secrets that exist, a disruption budget and a Service that select the pods.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { Namespace, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigError, loadConfig } from '../../src/config/ledger-config.js';

const DIR = 'deploy/kubernetes';
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

const kustomization = parseYaml(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8'));
const manifests: any[] = (kustomization.resources as string[]).flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => d.toJSON()),
);
const find = (kind: string) => manifests.filter((m) => m.kind === kind);

function validate(manifest: unknown): void {
  const m = manifest as { apiVersion: string; kind: string };
  const Model = MODELS[`${m.apiVersion}/${m.kind}`];
  if (!Model) throw new Error(`no schema for ${m.apiVersion} ${m.kind}`);
  new Model(manifest).validate();
}

describe('Kubernetes manifests', () => {
  it.each(manifests.map((m) => [`${m.kind} ${m.metadata.name}`, m]))('%s is valid', (_name, manifest) => {
    expect(() => validate(manifest)).not.toThrow();
  });

  it('the schema validation catches a wrong type and a missing field', () => {
    const deployment = structuredClone(find('Deployment')[0]);
    deployment.spec.replicas = 'three';
    expect(() => validate(deployment)).toThrow();
    const noSelector = structuredClone(find('Deployment')[0]);
    delete noSelector.spec.selector;
    expect(() => validate(noSelector)).toThrow();
  });

  const deployment = find('Deployment')[0];
  const pod = deployment.spec.template;
  const container = pod.spec.containers[0];

  it('runs several replicas on PostgreSQL with resource requests', () => {
    expect(deployment.spec.replicas).toBeGreaterThan(1);
    const env = Object.fromEntries(container.env.map((e: any) => [e.name, e]));
    expect(env.LEDGER_STORE.value).toBe('postgres');
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
  });

  it('probes liveness and readiness on the health routes of the container port', () => {
    const health = readFileSync('src/health/health.controller.ts', 'utf8');
    expect(health).toMatch(/@Controller\('health'\)/);
    expect(health).toMatch(/@Get\('live'\)/);
    expect(health).toMatch(/@Get\('ready'\)/);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(container.ports.map((p: any) => p.name)).toContain('http');
  });

  it('takes the database URL and the admin token from a Secret that has those keys', () => {
    const secrets = new Map(find('Secret').map((s) => [s.metadata.name, s]));
    for (const name of ['DATABASE_URL', 'LEDGER_ADMIN_TOKEN']) {
      const ref = container.env.find((e: any) => e.name === name)?.valueFrom?.secretKeyRef;
      expect(ref).toBeDefined();
      expect(Object.keys(secrets.get(ref.name)?.stringData ?? {})).toContain(ref.key);
    }
  });

  it('ships a placeholder admin token the ledger refuses to start with', () => {
    const env = { ...find('Secret')[0].stringData, LEDGER_STORE: 'postgres' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/LEDGER_ADMIN_TOKEN/);
  });

  it('has a PodDisruptionBudget and a Service selecting exactly the pods', () => {
    const labels = pod.metadata.labels;
    const selects = (selector: Record<string, string>) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v);
    const [pdb] = find('PodDisruptionBudget');
    expect(selects(pdb.spec.selector.matchLabels)).toBe(true);
    expect(pdb.spec.maxUnavailable ?? deployment.spec.replicas - pdb.spec.minAvailable).toBeLessThan(
      deployment.spec.replicas,
    );
    expect(selects(find('Service')[0].spec.selector)).toBe(true);
    expect(selects(deployment.spec.selector.matchLabels)).toBe(true);
  });

  it('starts the server through the tracing preload that the build emits', () => {
    expect(container.command).toEqual([
      'node',
      '--import',
      './dist/src/observability/tracing/register-tracing.js',
      'dist/server/main.js',
    ]);
    expect(readFileSync('src/observability/tracing/register-tracing.ts', 'utf8')).toContain('tracingEnabled');
  });
});
