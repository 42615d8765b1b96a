/**
 * Referer rule of the access interface: a request carrying `Referer` is accepted only when the
 * referring host is on the account's allowed domains. An entry `example.com` allows exactly that
 * host; `*.example.com` allows its subdomains. Hosts compare without letter case.
 */
export function refererAllowed(referer: string, allowedDomains: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(referer).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (!host) return false;
  return allowedDomains.some((entry) => {
    const domain = entry.trim().toLowerCase();
    if (domain.startsWith('*.')) return host.endsWith(domain.slice(1));
    return host === domain;
  });
}
