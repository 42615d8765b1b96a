/**
 * A URL-safe slug from a title: lower-case ASCII letters, digits and single dashes; `fallback`
 * when the title has none of them.
 */
export function slugify(title: string, fallback = 'course'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug || fallback;
}
