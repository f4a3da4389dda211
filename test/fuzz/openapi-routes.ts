/** A schema of the OpenAPI document (the subset Nest's Swagger module emits). */
export interface Schema {
  readonly type?: string;
  readonly $ref?: string;
  readonly enum?: readonly unknown[];
  readonly items?: Schema;
  readonly properties?: Record<string, Schema>;
  readonly required?: readonly string[];
  readonly allOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly additionalProperties?: unknown;
}

/** One route of the document: where its parameters go and what its body looks like. */
export interface Route {
  readonly method: string;
  /** Template, e.g. `/v1/operations/{operationId}/confirm`. */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly query: readonly { readonly name: string; readonly schema: Schema }[];
  readonly headers: readonly string[];
  /** The JSON body's schema (resolved), when the route takes one. */
  readonly body?: Schema;
  /** A live subscription (text/event-stream): the fuzzer reads its status and disconnects. */
  readonly sse: boolean;
}

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, any>>;
  readonly components?: { readonly schemas?: Record<string, Schema> };
}

/**
 * Every route of the document at `/docs-json`, with `$ref`s resolved (depth-limited: schemas
 * refer to each other, e.g. batch → claim).
 */
export function routesOf(doc: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const params: any[] = op.parameters ?? [];
      const body = op.requestBody?.content?.['application/json']?.schema;
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: resolve(doc, p.schema ?? {}) })),
        headers: params.filter((p) => p.in === 'header').map((p) => p.name),
        ...(body ? { body: resolve(doc, body) } : {}),
        sse: path.endsWith('/changes'),
      });
    }
  }
  return routes;
}

function resolve(doc: OpenApiDocument, schema: Schema, depth = 0): Schema {
  if (depth > 6) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').at(-1)!;
    return resolve(doc, doc.components?.schemas?.[name] ?? {}, depth + 1);
  }
  const out: Record<string, unknown> = { ...schema };
  if (schema.items) out['items'] = resolve(doc, schema.items, depth + 1);
  if (schema.properties) {
    out['properties'] = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, resolve(doc, v, depth + 1)]),
    );
  }
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (schema[k]) out[k] = schema[k]!.map((s) => resolve(doc, s, depth + 1));
  }
  return out as Schema;
}
