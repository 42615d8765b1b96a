import { AUDIENCES, INTERFACES, type Audience } from './interfaces.ts';
import { withCommonResponses, type OperationObject } from './responses.ts';

/** The parts of an OpenAPI 3.1 document this module reads and writes. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; description?: string; [key: string]: unknown };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown>; [key: string]: unknown };
  tags?: { name: string }[];
  security?: unknown[];
  [key: string]: unknown;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function mapOperations(paths: OpenApiDocument['paths'], map: (operation: OperationObject) => OperationObject | undefined): OpenApiDocument['paths'] {
  const out: OpenApiDocument['paths'] = {};
  for (const [path, item] of Object.entries(paths)) {
    const kept: Record<string, OperationObject> = {};
    for (const [method, operation] of Object.entries(item)) {
      const mapped = METHODS.has(method) ? map(operation) : operation;
      if (mapped) kept[method] = mapped;
    }
    if (Object.keys(kept).some((m) => METHODS.has(m))) out[path] = kept;
  }
  return out;
}

/** Every `#/components/<kind>/<name>` the value refers to. */
function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) found.add(v);
      else refsIn(v, found);
    }
  }
  return found;
}

/** The document without the schemas no operation reaches, and with only the security schemes and tags its operations use. */
function pruned(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const pending = [...refsIn(document.paths, new Set())];
  while (pending.length > 0) {
    const ref = pending.pop()!;
    if (reached.has(ref)) continue;
    reached.add(ref);
    const name = ref.split('/').pop()!;
    if (ref.startsWith('#/components/schemas/')) pending.push(...refsIn(schemas[name], new Set()));
  }
  const operations = Object.values(document.paths).flatMap((item) => Object.entries(item).filter(([m]) => METHODS.has(m)).map(([, o]) => o));
  const schemesUsed = new Set(operations.flatMap((o) => ((o.security as Record<string, unknown>[] | undefined) ?? []).flatMap((r) => Object.keys(r))));
  const tagsUsed = [...new Set(operations.flatMap((o) => (o.tags as string[] | undefined) ?? []))].sort();
  const keep = <T>(entries: Record<string, T> | undefined, wanted: (name: string) => boolean) =>
    Object.fromEntries(Object.entries(entries ?? {}).filter(([name]) => wanted(name)));
  return {
    ...document,
    tags: tagsUsed.map((name) => ({ name, description: tagDescription(name) })),
    components: {
      ...document.components,
      schemas: keep(schemas, (name) => reached.has(`#/components/schemas/${name}`)),
      securitySchemes: keep(document.components?.securitySchemes, (name) => schemesUsed.has(name)),
    },
  };
}

/** `shop: orders` -> "Shop API: orders." */
function tagDescription(tag: string): string {
  const [audience, resource] = tag.split(': ') as [Audience, string];
  return `${INTERFACES[audience]?.title ?? audience}: ${resource.replaceAll('_', ' ')}.`;
}

/**
 * A one-member `anyOf` or `oneOf` as its member (zod leaves one when the other branches of a union
 * have no JSON Schema form, e.g. the empty query value that means "unset").
 */
function withoutSingleAlternatives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSingleAlternatives);
  if (!value || typeof value !== 'object') return value;
  const object = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSingleAlternatives(v)]));
  for (const keyword of ['anyOf', 'oneOf']) {
    const alternatives = object[keyword];
    if (!Array.isArray(alternatives) || alternatives.length !== 1) continue;
    const { [keyword]: _single, ...rest } = object;
    const member = alternatives[0] as Record<string, unknown>;
    if (Object.keys(member).some((k) => k in rest)) continue;
    return { ...rest, ...member };
  }
  return object;
}

/** The whole document as served: each operation with its interface's error replies, nothing unused. */
export function completeDocument(document: OpenApiDocument): OpenApiDocument {
  const paths = withoutSingleAlternatives(mapOperations(document.paths, withCommonResponses)) as OpenApiDocument['paths'];
  const schemas = withoutSingleAlternatives(document.components?.schemas ?? {}) as Record<string, unknown>;
  return pruned({ ...document, paths, components: { ...document.components, schemas } });
}

/** The document of one audience (`/docs/<audience>.json`): its operations only, for generating its client alone. */
export function audienceDocument(whole: OpenApiDocument, audience: (typeof AUDIENCES)[number]): OpenApiDocument {
  const title = `${whole.info.title}: ${INTERFACES[audience].title}`;
  return pruned({
    ...whole,
    info: { ...whole.info, title },
    paths: mapOperations(whole.paths, (operation) => (operation['x-audience'] === audience ? operation : undefined)),
  });
}

export function isAudience(name: string): name is Exclude<Audience, 'public'> {
  return (AUDIENCES as readonly string[]).includes(name);
}
