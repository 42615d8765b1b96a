/**
 * The interfaces of the API as the OpenAPI document presents them: which audience a route belongs
 * to (by URL prefix, and for the shared `/api/v1/configuration` prefix by the key its interface
 * checks), how it authenticates, and which error statuses every route of it can answer. A new
 * route repeats none of this; it declares only its `operationId`, `summary` and own replies.
 */

export const AUDIENCES = ['access', 'configuration', 'shop', 'storefront', 'admin'] as const;
/** `public`: the routes outside every interface (health, served files, downloads): whole document only. */
export type Audience = (typeof AUDIENCES)[number] | 'public';

/** The security schemes, declared once in `components.securitySchemes`. */
export const SECURITY_SCHEMES = {
  accessKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-KEY',
    description: 'The platform API key (access interface, `/api/...`).',
  },
  configurationKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-KEY',
    description: 'A configuration key (`ck_...`) of a platform; the scope an operation needs is listed in its security requirement and `x-required-scope`.',
  },
  shopKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-KEY',
    description:
      'A shop API key; its scopes (`read`, `write_data`, `write_subscriptions`, `write_config`, `write_storefront`) open the operations ' +
      'whose security requirement and `x-required-scope` name one of them.',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (`ADMIN_TOKEN`), sent as `Authorization: Bearer <token>`.',
  },
} as const;
export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;

export interface InterfaceFacts {
  /** The scheme every operation requires; none: `security: []` (open). */
  scheme?: SecuritySchemeName;
  /** Status of a body, query or path parameter that fails validation. */
  validationStatus: 400 | 422;
  /** What a 401 and a 403 mean here; none: the interface answers neither. */
  unauthorized?: string;
  forbidden?: string;
  /** Every operation can answer 429 (per key, per address or both). */
  rateLimited: boolean;
  /** A line of the audience document's description. */
  title: string;
}

export const INTERFACES: Record<Audience, InterfaceFacts> = {
  access: {
    scheme: 'accessKey',
    validationStatus: 400,
    unauthorized: 'Missing or invalid platform API key, or a `Referer` not on the allowed list.',
    forbidden: 'The client address is blocked after repeated requests without a valid key.',
    rateLimited: true,
    title: 'Access interface',
  },
  configuration: {
    scheme: 'configurationKey',
    validationStatus: 422,
    unauthorized: 'Missing, unknown, revoked or expired configuration key.',
    forbidden: 'The key lacks the scope the operation needs, or the client address is blocked.',
    rateLimited: true,
    title: 'Platform configuration interface',
  },
  shop: {
    scheme: 'shopKey',
    validationStatus: 422,
    unauthorized: "Missing or revoked shop API key, or the shop's API is switched off.",
    forbidden: 'The key lacks the scope the operation needs.',
    rateLimited: true,
    title: 'Shop API',
  },
  storefront: { validationStatus: 422, rateLimited: true, title: 'Storefront' },
  admin: { scheme: 'operatorToken', validationStatus: 400, unauthorized: 'Missing or invalid operator token.', rateLimited: false, title: 'Operator API' },
  public: { validationStatus: 400, rateLimited: false, title: 'Public routes' },
};

/** Where a route belongs; `keyScheme` is the scheme its scoped-key interface declared (api/shared/scoped-key-auth.ts). */
export function audienceOf(url: string, keyScheme?: SecuritySchemeName): Audience {
  if (url.startsWith('/admin/')) return 'admin';
  if (url.startsWith('/store/')) return 'storefront';
  if (url.startsWith('/api/v1/configuration/')) return keyScheme === 'shopKey' ? 'shop' : 'configuration';
  if (url.startsWith('/api/v1/')) return 'shop';
  if (url.startsWith('/api/')) return 'access';
  return 'public';
}

/** The audience's URL prefix, which the resource of a tag leaves out. */
const AUDIENCE_PREFIX = /^\/(?:admin\/v1|store\/v1\/[^/]+|api\/v1\/configuration|api\/v1|api)(?=\/)/;

/**
 * The tag of an operation: the audience and the first resource after the audience's prefix
 * (`shop: orders`, `admin: shops`, `configuration: webhooks`, `storefront: carts`); the shop's
 * configuration resources keep theirs apart (`shop: configuration/club`).
 */
export function tagOf(url: string, audience: Audience): string {
  const resource = url.replace(AUDIENCE_PREFIX, '').split('/').find((s) => s && !s.startsWith(':') && !s.startsWith('{')) ?? 'root';
  return audience === 'shop' && url.startsWith('/api/v1/configuration/') ? `shop: configuration/${resource}` : `${audience}: ${resource}`;
}
