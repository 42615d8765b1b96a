import { INTERFACES, type Audience } from './interfaces.ts';

/** The subset of an OpenAPI operation the common replies are derived from. */
export interface OperationObject {
  parameters?: { in: string }[];
  requestBody?: unknown;
  responses?: Record<string, ResponseObject>;
  'x-audience'?: Audience;
  [key: string]: unknown;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, unknown>;
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Found: redirects to the file',
  400: 'The input fails validation; `errors` names each field.',
  401: 'Not authenticated.',
  403: 'Forbidden.',
  404: 'The resource named in the path does not exist (or belongs to another tenant).',
  409: 'Conflicts with the current state of the resource.',
  413: 'The body is over 1 MB.',
  414: 'A path parameter is over 100 characters.',
  415: 'A body not sent as `Content-Type: application/json`.',
  422: 'The input fails validation; `errors` names each field.',
  429: 'Rate limit exceeded; `Retry-After` says when to try again.',
  503: 'Unavailable.',
};

const errorContent = (component: 'Error' | 'ValidationError') => ({ 'application/json': { schema: { $ref: `#/components/schemas/${component}` } } });
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds until the limit allows the request.', schema: { type: 'integer', minimum: 1 } } };

/**
 * The error replies an operation's interface answers besides the route's own (spec: error
 * statuses): 401 and 403 where a key or token is checked, 404 where the path names a resource,
 * 413, 415 and the validation status where a body is read, the validation status where a query
 * or path parameter is, 429 where requests are limited. A status the route documents itself stays
 * as declared; a description left at @fastify/swagger's "Default Response" gets the status's meaning.
 */
export function withCommonResponses(operation: OperationObject): OperationObject {
  const facts = INTERFACES[operation['x-audience'] ?? 'public'];
  const params = new Set((operation.parameters ?? []).map((p) => p.in));
  const common: Record<string, ResponseObject> = {};
  const validation = String(facts.validationStatus);
  if (facts.unauthorized) common[401] = { description: facts.unauthorized, content: errorContent('Error') };
  if (facts.forbidden) common[403] = { description: facts.forbidden, content: errorContent('Error') };
  if (params.has('path')) common[404] = { description: STATUS_TEXT[404], content: errorContent('Error') };
  if (operation.requestBody) {
    common[413] = { description: STATUS_TEXT[413], content: errorContent('Error') };
    common[415] = { description: STATUS_TEXT[415], content: errorContent('Error') };
  }
  if (operation.requestBody || params.has('query') || params.has('path')) common[validation] = { description: STATUS_TEXT[validation], content: errorContent('ValidationError') };
  if (facts.rateLimited) common[429] = { description: STATUS_TEXT[429], headers: RETRY_AFTER, content: errorContent('Error') };

  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries({ ...operation.responses })) {
    const described = response.description && response.description !== 'Default Response';
    responses[status] = described ? response : { ...response, description: common[status]?.description ?? STATUS_TEXT[status] ?? `Status ${status}.` };
  }
  for (const [status, response] of Object.entries(common)) responses[status] ??= response;
  return { ...operation, responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))) };
}
