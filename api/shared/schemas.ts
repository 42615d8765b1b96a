import { z } from 'zod';
import { decodeImage, NOT_AN_IMAGE, sniffImageType, type ImageContentType } from '../../domain/shared/images.ts';
import { fieldErrorMap, unprocessable } from './validation-errors.ts';

/** Small reply bodies shared by every interface (documented in the OpenAPI document). */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: 'Error' });
export const ValidationErrorBody = z
  .object({ error: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'ValidationError', description: 'The `errors` keys name the offending fields (`body.email`, `querystring.page`, ...).' });

/** Operator and configuration replies wrap their payload as `{data}`. */
export const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/**
 * An uploaded image: `data` is the file in base64; 5 MB and above is refused here. The type is
 * decided from the bytes (PNG or JPEG, by `file-type`, never from `content_type` or the name),
 * which is asynchronous and so happens after the schema: `sniffImages`.
 */
export const ImageUpload = z
  .strictObject({
    filename: z.string().trim().min(1).max(255).refine((name) => !name.includes('\u0000'), 'must not contain NUL characters'),
    content_type: z.string().max(100).nullish().describe('informative only: the type is decided from the file content'),
    data: z.string().min(1).describe('the file in base64'),
  })
  .transform((image, ctx) => {
    const decoded = decodeImage(image.data);
    if (!decoded.ok) {
      ctx.addIssue({ code: 'custom', message: decoded.message });
      return z.NEVER;
    }
    return { filename: image.filename, bytes: decoded.bytes };
  });
export type ImageBytesInput = z.output<typeof ImageUpload>;
export type ImageInput = ImageBytesInput & { contentType: ImageContentType };

/**
 * The body with each uploaded image of `fields` typed from its bytes; 422 naming every field whose
 * content is not a PNG or JPEG.
 */
export async function sniffImages<T extends Record<string, unknown>>(body: T, fields: readonly string[]): Promise<T> {
  const typed: Record<string, unknown> = { ...body };
  const errors = fieldErrorMap();
  for (const field of fields) {
    const image = body[field] as ImageBytesInput | null | undefined;
    if (!image) continue;
    const contentType = await sniffImageType(image.bytes);
    if (contentType) typed[field] = { ...image, contentType };
    else errors[field] = [NOT_AN_IMAGE];
  }
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  return typed as T;
}
