import { z } from 'zod';
import { isValidNip, nipDigits } from '../../../domain/shop/invoice-seller.ts';

const line = (max: number) => z.string().trim().min(1).max(max);

/** The seller block of the shop's invoices (DESIGN.md section 10); null removes it. */
export const InvoiceSellerBody = z
  .object({
    name: line(255),
    nip: z.string().trim().max(20).refine(isValidNip, 'is not a valid NIP (ten digits with a correct checksum)').transform(nipDigits),
    address: line(255),
    postcode: line(16),
    city: line(128),
    country: line(64),
    bank_account: z.string().trim().min(1).max(64).nullish(),
  })
  .strict();

export const InvoiceSellerReply = z
  .object({
    name: z.string(),
    nip: z.string(),
    address: z.string(),
    postcode: z.string(),
    city: z.string(),
    country: z.string(),
    bank_account: z.string().nullable(),
  })
  .nullable()
  .meta({ id: 'InvoiceSeller' });
