const SUFFIX = '-sandbox';
const SUBDOMAIN_MAX = 63;

/** The twin's subdomain: the platform's with `-sandbox`, shortened to stay a valid DNS label. */
export function sandboxSubdomain(subdomain: string): string {
  return `${subdomain.slice(0, SUBDOMAIN_MAX - SUFFIX.length).replace(/-+$/, '')}${SUFFIX}`;
}
