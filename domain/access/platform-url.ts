/** The participant-facing address of a platform, from `PLATFORM_URL_TEMPLATE` (`{subdomain}` replaced). */
export function platformAppUrl(urlTemplate: string, subdomain: string): string {
  return urlTemplate.replace('{subdomain}', subdomain).replace(/\/+$/, '');
}

/** The plain sign-in page, the `{{LINK_LOGOWANIE}}` of every mail that is not a first invitation. */
export function platformLoginUrl(urlTemplate: string, subdomain: string): string {
  return `${platformAppUrl(urlTemplate, subdomain)}/login`;
}
