/** Field rules of the platform look (spec: Platform settings, Welcome section). */

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** Colours are `#RRGGBB`. */
export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value);
}

/** Profile, video and other links: absolute http(s) URLs with a host. */
export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * PATCH semantics of the configuration interface: only the fields sent change, and of an object
 * field (`footer`, `default_email_sender`, ...) only the members sent. `undefined` means "not sent".
 */
export function applyPatch(document: Json, patch: Json): Json {
  const result: Json = { ...document };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = result[field];
    result[field] = isPlainObject(value) && isPlainObject(current) ? applyPatch(current, value) : value;
  }
  return result;
}

/** A stored document read through its defaults: fields never saved read as their default. */
export function withDefaults(defaults: Json, document: Json): Json {
  return applyPatch(defaults, Object.fromEntries(Object.entries(document).filter(([field]) => field in defaults)));
}
