/**
 * IP address classification for outgoing requests to addresses a tenant chooses (webhooks):
 * DESIGN.md section 3, spec "Webhooks to private or local network addresses are not sent".
 * Pure code (no Node built-ins), so it is unit-tested exhaustively and usable anywhere.
 *
 * An address is `public` only when it is none of the special-purpose ranges below (IANA IPv4 and
 * IPv6 special-purpose registries). IPv6 forms that embed an IPv4 address (mapped, compatible,
 * translated, NAT64, 6to4) are judged by the IPv4 address they carry.
 */

export type AddressFamily = 4 | 6;

export interface IpAddress {
  family: AddressFamily;
  /** 32 bits for IPv4, 128 bits for IPv6. */
  value: bigint;
}

export type RefusedRange =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

export type AddressClass = { public: true } | { public: false; range: RefusedRange };

export interface Cidr {
  family: AddressFamily;
  network: bigint;
  prefix: number;
}

const V4_BITS = 32;
const V6_BITS = 128;

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed) throw new Error(`bad built-in CIDR ${text}`);
  return parsed;
}

/** IPv4 special-purpose ranges, most specific first where they overlap. */
const V4_RANGES: [Cidr, RefusedRange][] = (
  [
    ['0.0.0.0/8', 'unspecified'],
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'shared'],
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link-local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'reserved'],
    ['192.0.2.0/24', 'documentation'],
    ['192.31.196.0/24', 'reserved'],
    ['192.52.193.0/24', 'reserved'],
    ['192.88.99.0/24', 'reserved'],
    ['192.168.0.0/16', 'private'],
    ['192.175.48.0/24', 'reserved'],
    ['198.18.0.0/15', 'benchmarking'],
    ['198.51.100.0/24', 'documentation'],
    ['203.0.113.0/24', 'documentation'],
    ['224.0.0.0/4', 'multicast'],
    ['255.255.255.255/32', 'broadcast'],
    ['240.0.0.0/4', 'reserved'],
  ] as const
).map(([range, name]) => [cidr(range), name]);

/** IPv6 ranges judged by the IPv4 address in their low 32 bits. */
const V6_EMBEDDING_V4: Cidr[] = ['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '::/96'].map(cidr);
const SIX_TO_FOUR = cidr('2002::/16');

/** IPv6 special-purpose ranges (after the embedded forms above). */
const V6_RANGES: [Cidr, RefusedRange][] = (
  [
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['64:ff9b:1::/48', 'private'],
    ['100::/64', 'reserved'],
    ['2001::/23', 'reserved'],
    ['2001:db8::/32', 'documentation'],
    ['3fff::/20', 'documentation'],
    ['5f00::/16', 'reserved'],
    ['fc00::/7', 'unique-local'],
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'site-local'],
    ['ff00::/8', 'multicast'],
  ] as const
).map(([range, name]) => [cidr(range), name]);
/** Only global unicast space is public; everything outside 2000::/3 is reserved. */
const V6_GLOBAL_UNICAST = cidr('2000::/3');

export function cidrContains(range: Cidr, address: IpAddress): boolean {
  if (range.family !== address.family) return false;
  const bits = BigInt((range.family === 4 ? V4_BITS : V6_BITS) - range.prefix);
  return address.value >> bits === range.network >> bits;
}

/** The IPv4 address an IPv6 address embeds in a known form (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIpv4(address: IpAddress): IpAddress | null {
  if (address.family !== 6) return null;
  if (V6_EMBEDDING_V4.some((range) => cidrContains(range, address))) {
    // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
    if (address.value <= 1n) return null;
    return { family: 4, value: address.value & 0xffff_ffffn };
  }
  if (cidrContains(SIX_TO_FOUR, address)) return { family: 4, value: (address.value >> 80n) & 0xffff_ffffn };
  return null;
}

export function classifyAddress(address: IpAddress): AddressClass {
  const inner = embeddedIpv4(address);
  if (inner) return classifyAddress(inner);
  const ranges = address.family === 4 ? V4_RANGES : V6_RANGES;
  for (const [range, name] of ranges) if (cidrContains(range, address)) return { public: false, range: name };
  if (address.family === 6 && !cidrContains(V6_GLOBAL_UNICAST, address)) return { public: false, range: 'reserved' };
  return { public: true };
}

/**
 * Whether outgoing requests may go to this address: public addresses, and private ones listed in
 * the allowlist (`WEBHOOK_PRIVATE_ALLOWLIST`). IPv6 forms of an IPv4 address match IPv4 entries.
 */
export function addressAllowed(address: IpAddress, allowlist: readonly Cidr[]): AddressClass {
  const verdict = classifyAddress(address);
  if (verdict.public) return verdict;
  const candidates = [address, embeddedIpv4(address)].filter((a): a is IpAddress => a !== null);
  if (candidates.some((a) => allowlist.some((range) => cidrContains(range, a)))) return { public: true };
  return verdict;
}

// ----- parsing

function parseNumberPart(part: string): bigint | null {
  if (part === '') return null;
  if (/^0[xX][0-9a-fA-F]*$/.test(part)) return part.length === 2 ? 0n : BigInt(part);
  if (/^0[0-7]+$/.test(part)) return BigInt(`0o${part.slice(1)}`);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return BigInt(part);
  return null;
}

/**
 * IPv4 in every form a URL or `inet_aton` accepts: `127.0.0.1`, `127.1`, `2130706433`,
 * `0177.0.0.1`, `0x7f.1`. Null when the text is not such an address.
 */
export function parseIpv4(text: string): IpAddress | null {
  const parts = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers = parts.map(parseNumberPart);
  if (numbers.some((n) => n === null)) return null;
  const values = numbers as bigint[];
  const last = values[values.length - 1]!;
  const leading = values.slice(0, -1);
  if (leading.some((n) => n > 255n)) return null;
  if (last >= 1n << BigInt(8 * (5 - values.length))) return null;
  let value = 0n;
  leading.forEach((n, i) => (value |= n << BigInt(8 * (3 - i))));
  return { family: 4, value: value | last };
}

/** Strict dotted-quad IPv4 (four decimal parts), as inside an IPv6 address. */
function parseDottedQuad(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function parseGroups(text: string): bigint[] | null {
  if (text === '') return [];
  const groups: bigint[] = [];
  const pieces = text.split(':');
  for (const [i, piece] of pieces.entries()) {
    if (i === pieces.length - 1 && piece.includes('.')) {
      const v4 = parseDottedQuad(piece);
      if (v4 === null) return null;
      groups.push(v4 >> 16n, v4 & 0xffffn);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
      groups.push(BigInt(`0x${piece}`));
    } else {
      return null;
    }
  }
  return groups;
}

/** IPv6, with or without brackets; a zone (`%eth0`) is ignored. Null when not an IPv6 address. */
export function parseIpv6(text: string): IpAddress | null {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  if (!body.includes(':')) return null;
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0]!);
  const tail = halves.length === 2 ? parseGroups(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<bigint>(missing).fill(0n), ...tail];
  return { family: 6, value: groups.reduce((acc, g) => (acc << 16n) | g, 0n) };
}

/** An IP address in any accepted form, or null for a name. */
export function parseIpAddress(text: string): IpAddress | null {
  return parseIpv6(text) ?? parseIpv4(text);
}

export function formatIpAddress(address: IpAddress): string {
  if (address.family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((address.value >> shift) & 0xffffn).toString(16));
  return groups.join(':');
}

/** `10.0.0.0/8`, `::1/128`, or a bare address (a single host). Null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [addressText, prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0 || !addressText) return null;
  const v6 = parseIpv6(addressText);
  const address = v6 ?? (parseDottedQuad(addressText) === null ? null : parseIpv4(addressText));
  if (!address) return null;
  const bits = address.family === 4 ? V4_BITS : V6_BITS;
  if (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  const shift = BigInt(bits - prefix);
  return { family: address.family, network: (address.value >> shift) << shift, prefix };
}

/** `WEBHOOK_PRIVATE_ALLOWLIST`: CIDRs separated by commas or spaces; throws on a malformed entry. */
export function parseCidrList(text: string | undefined): Cidr[] {
  const entries = (text ?? '').split(/[\s,]+/).filter(Boolean);
  return entries.map((entry) => {
    const parsed = parseCidr(entry);
    if (!parsed) throw new Error(`not a CIDR: ${entry}`);
    return parsed;
  });
}
