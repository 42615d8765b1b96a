import { z } from 'zod';
import { checkImage } from '../../domain/shared/images.ts';

/** Small reply bodies shared by every interface (documented in the OpenAPI document). */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: 'Error' });
export const ValidationErrorBody = z
  .object({ error: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'ValidationError', description: 'The `errors` keys name the offending fields (`body.email`, `querystring.page`, ...).' });

/** Operator and configuration replies wrap their payload as `{data}`. */
export const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/**
 * An uploaded image: `data` is the file in base64; the type is decided from the bytes (PNG or
 * JPEG), never from `content_type` or the name; 5 MB and above is refused.
 */
export const ImageUpload = z
  .strictObject({
    filename: z.string().trim().min(1).max(255),
    content_type: z.string().max(100).optional().describe('informative only: the type is decided from the file content'),
    data: z.string().min(1).describe('the file in base64'),
  })
  .transform((image, ctx) => {
    const check = checkImage(image.data);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.message });
      return z.NEVER;
    }
    return { filename: image.filename, contentType: check.contentType, bytes: check.bytes };
  });
export type ImageInput = z.output<typeof ImageUpload>;
