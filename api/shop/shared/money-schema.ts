import { z } from 'zod';
import { isMoney, toMoneyString } from '../../../domain/shared/money.ts';

/**
 * An amount on the wire: a string with at most two decimals ("12", "12.5", "12.50"), also
 * accepted as a JSON number; answered as a string with two decimals. Never negative.
 */
export const moneyAmount = z
  .union([z.string().trim().max(20), z.number().finite()])
  .transform((value, ctx) => {
    const text = String(value);
    if (!isMoney(text)) {
      ctx.addIssue({ code: 'custom', message: 'must be an amount with at most two decimals, such as "12.50"' });
      return z.NEVER;
    }
    return toMoneyString(text);
  })
  .meta({ type: 'string', example: '12.50' });
