import { z } from 'zod';

/** Small reply bodies shared by every interface (documented in the OpenAPI document). */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: 'Error' });
export const ValidationErrorBody = z
  .object({ error: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'ValidationError', description: 'The `errors` keys name the offending fields (`body.email`, `querystring.page`, ...).' });

/** Operator and configuration replies wrap their payload as `{data}`. */
export const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
