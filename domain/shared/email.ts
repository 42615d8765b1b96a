import { z } from 'zod';

/** E-mail addresses are compared without letter case, so they are stored lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const emailSchema = z.string().trim().max(254).pipe(z.email()).transform(normalizeEmail);
