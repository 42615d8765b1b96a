import { z } from 'zod';
import { CONTENT_KINDS, MAX_DESCRIPTION_LENGTH, MAX_WATERMARK_LENGTH, isBase64 } from '../../../domain/shop/electronic-content-rules.ts';

const NO_NUL = 'must not contain NUL characters';
/** Text PostgreSQL can store: at most `max` characters, no NUL. */
const text = (max: number) => z.string().max(max).refine((value) => !value.includes('\u0000'), NO_NUL);
const positive = (max: number) => z.number().int().min(1).max(max);

export const ContentParams = z.object({ product_id: z.string().max(20).describe('the product id') });
export const OneContentParams = ContentParams.extend({ id: z.string().max(20).describe('the electronic content id') });

/** The uploaded file; `data` is checked for size (413) before this schema runs. */
const FileUpload = z
  .strictObject({
    filename: text(255).trim().min(1, 'must not be empty'),
    content_type: text(255).optional().describe('informative only: the type is decided from the file content'),
    data: z.string().refine(isBase64, 'must be the file in base64').describe('the file in base64, at most 50 MB decoded: PDF, EPUB, MOBI or AZW3'),
  })
  .meta({ id: 'ShopElectronicContentUpload' });

const settings = {
  kind: z.enum(CONTENT_KINDS).optional().describe('`normal` (default), a downloadable file; other kinds are added in the panel'),
  content_title: text(255).nullable().optional(),
  days_to_expire: positive(36_500).optional().describe('days from purchase the download link works; required with a file'),
  usages_to_expire: positive(1_000_000).optional().describe('how many downloads the buyer has; required with a file'),
  watermark: text(MAX_WATERMARK_LENGTH).optional().describe('empty means none; tags {{IMIE}}, {{NAZWISKO}}, {{EMAIL}}'),
  watermark_interval: positive(10_000).optional().describe('every how many pages the watermark repeats; default 1'),
  description: text(MAX_DESCRIPTION_LENGTH).optional(),
  distribute_via_shop_cas: z.boolean().optional(),
};

export const CreateContentBody = z
  .strictObject({
    file: FileUpload.optional(),
    source_content_id: z
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .nullable()
      .optional()
      .describe('a file of a product of this shop: attaches the same file, its settings carried over and overridden by the fields sent'),
    ...settings,
  })
  .meta({ id: 'ShopElectronicContentCreate', description: 'Either `file` or `source_content_id` (400 for both or neither).' });
export type CreateContent = z.output<typeof CreateContentBody>;

export const PatchContentBody = z
  .strictObject({ file: FileUpload.optional().describe('replaces the file itself'), ...settings })
  .meta({ id: 'ShopElectronicContentPatch', description: 'Only the fields sent change; `file` replaces the file.' });
export type PatchContent = z.output<typeof PatchContentBody>;

export const ElectronicContentReply = z
  .object({
    id: z.number(),
    kind: z.string(),
    content_title: z.string().nullable(),
    days_to_expire: z.number(),
    usages_to_expire: z.number(),
    watermark: z.string(),
    watermark_interval: z.number(),
    description: z.string(),
    distribute_via_shop_cas: z.boolean(),
    file: z.object({ filename: z.string(), content_type: z.string(), byte_size: z.number() }).describe('never a download link'),
    created_at: z.string(),
  })
  .meta({ id: 'ShopElectronicContent' });

export const DeletedContentReply = z.object({ id: z.number(), deleted: z.literal(true) });
