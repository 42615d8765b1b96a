import { z } from 'zod';

/**
 * Lists of the configuration and shop interfaces (DESIGN.md section 6): `page`, `per_page`
 * (default 25, at most 100), and `meta: {page, per_page, total, total_pages}`.
 */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type Page = z.output<typeof PageQuery>;

export const PageMeta = z.object({ page: z.number(), per_page: z.number(), total: z.number(), total_pages: z.number() });

/** A list reply: `{data: [item], meta}`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: PageMeta });

export function pageMeta({ page, per_page }: Page, total: number): z.infer<typeof PageMeta> {
  return { page, per_page, total, total_pages: Math.ceil(total / per_page) };
}

/** `limit` and `offset` of a page. */
export function pageWindow({ page, per_page }: Page): { limit: number; offset: number } {
  return { limit: per_page, offset: (page - 1) * per_page };
}
