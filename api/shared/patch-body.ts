import { z } from 'zod';

type WithoutDefaults<S extends z.ZodRawShape> = { [K in keyof S]: S[K] extends z.ZodDefault<infer Inner> ? Inner : S[K] };

/**
 * A PATCH body from its POST's: every field optional, with the POST's checks but not its
 * defaults (a field left out is left as it is, not reset to the POST's default).
 */
export function patchOf<S extends z.ZodRawShape>(create: z.ZodObject<S>) {
  const shape = Object.fromEntries(Object.entries(create.shape).map(([key, field]) => [key, field instanceof z.ZodDefault ? field.unwrap() : field])) as WithoutDefaults<S>;
  return z.object(shape).partial();
}
