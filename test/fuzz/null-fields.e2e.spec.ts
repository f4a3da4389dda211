// Every field of every JSON body in /docs-json sent as null, one at a time, with the other fields at
// their documented examples: never a 5xx. Clients serialise absent values as null; class-validator's
// @IsOptional lets null through to the handler, where it once reached the store as a number
// (PUT policies `expectedVersion: null` was a 500, found by the every-route fuzz after 628 random
// requests — this sweep meets each such field deterministically).
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { routesOf, type Schema } from './openapi-routes.js';

let ledger: TestLedger;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ledger = await startTestLedger('pglite');
  const claim = await ledger.client.claim(
    { tenant: 'acme', source: 'nulls', action: 'invoice.create', subject: 'open' },
    { n: 1 },
  );
  ids['operationId'] = claim.body.operationId;
  ids['keyId'] = (await ledger.createKey({ tenant: 'acme', roles: ['worker'] })).key.id;
}, 60_000);
afterAll(() => ledger.close());

/** A value of `schema`'s type: its example when documented. */
function sample(schema: Schema & { example?: unknown }): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [];
  if (schema.type === 'object' || schema.properties) return {};
  return 'a';
}

const PATH_VALUES: Record<string, string> = {
  tenant: 'acme',
  action: 'invoice.create',
  step: 'charge',
  name: 'operations',
  id: '00000000-0000-4000-8000-000000000000',
};

it('answers every body field sent as null with a 4xx or a success, never a 5xx', async () => {
  const routes = routesOf((await ledger.client.get('/docs-json')).body).filter(
    (r) => r.body?.properties && r.path !== '/v1/admin/backup',
  );
  expect(routes.length).toBeGreaterThan(10);
  const failures: string[] = [];
  let sent = 0;
  for (const route of routes) {
    let path = route.path;
    for (const p of route.pathParams) path = path.replace(`{${p}}`, ids[p] ?? PATH_VALUES[p] ?? 'x');
    const properties = Object.entries(route.body!.properties!);
    const base = Object.fromEntries(properties.map(([k, s]) => [k, sample(s)]));
    for (const [field] of properties) {
      const res = await ledger.client.request(route.method, path, { ...base, [field]: null });
      sent++;
      if (res.status >= 500) failures.push(`${res.status} ${route.method} ${path} ${field}: null`);
    }
  }
  expect(sent).toBeGreaterThan(30);
  expect(failures).toEqual([]);
}, 120_000);
