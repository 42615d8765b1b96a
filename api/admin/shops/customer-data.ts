import { personalDataRoutes } from '../personal-data-routes.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

/** A customer's data on request (DESIGN.md section 8, issue 29): export, erasure, the erasure's result. */
export const shopCustomerDataAdminRoutes = personalDataRoutes({
  tenant: 'shop',
  base: '/shops/:shop_id/customers',
  operationId: 'admin.shops.customers',
  params: ShopParams,
  tenantOf: async (em, params) => (await shopOf(em, params.shop_id)).id,
  invalid: 422,
  exportSummary: 'Everything the shop holds about one person',
  exportDescription:
    'Orders with addresses and lines, download codes, subscribers with periods and charges, saved payment methods, newsletter consent, discount codes drawn for them, e-mail discounts, mails sent and webhook payloads about their orders; the e-mail compared without letter case. An unknown person gets the same document with every list empty.',
  eraseSummary: "Erases a customer's personal data, as a workflow",
  eraseDescription:
    'Starts the erasure (`shop/<id>/customer-erasure/<hash of the e-mail>`): orders kept for tax law (numbers, lines, amounts, invoice numbers, dates) with the personal fields replaced; consent, drawn codes and pending mails removed; subscribers ended and their payment method detached; download codes revoked; mails, payloads and the audit log redacted; `customer_erased` to the webhooks. Concurrent and repeated requests make one erasure; read its result at `.../customers/erasures/:erasure_id`.',
});
