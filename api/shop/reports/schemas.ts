import { z } from 'zod';
import { dateRangeProblem, dayNumber, REPORT_GROUPINGS, REPORT_MAX_DAYS } from '../../../domain/shop/reports.ts';

const INT32_MAX = 2_147_483_647;
/** Most values one list filter (`product_id`, `sku`) takes. */
export const REPORT_LIST_MAX = 100;

const ReportDate = z
  .string()
  .refine((text) => dayNumber(text) !== null, 'must be a date YYYY-MM-DD')
  .meta({ type: 'string', format: 'date', example: '2026-01-31' });

/** Control characters (NUL above all, which PostgreSQL text refuses) never occur in a SKU or an address. */
const CONTROL = /[\u0000-\u001f\u007f]/;
const plainText = (text: string) => !CONTROL.test(text);

const POSITIVE_INT = /^\d{1,10}$/;
const isPositiveId = (text: string) => POSITIVE_INT.test(text) && Number(text) >= 1 && Number(text) <= INT32_MAX;

const positiveId = z
  .string()
  .refine(isPositiveId, 'must be a positive integer')
  .transform(Number);

/**
 * `a,b,c` (or one value) into distinct trimmed values: none empty, each passing `valid`, at most
 * REPORT_LIST_MAX. A failure names the parameter itself.
 */
const commaList = <O>(valid: (value: string) => boolean, convert: (value: string) => O, what: string) =>
  z
    .string()
    .max(10_000)
    .transform((text, ctx) => {
      const values = [...new Set(text.split(',').map((part) => part.trim()))];
      if (values.length > REPORT_LIST_MAX) ctx.addIssue({ code: 'custom', message: `takes at most ${REPORT_LIST_MAX} values` });
      else if (!values.every((value) => value !== '' && valid(value))) ctx.addIssue({ code: 'custom', message: `must be ${what}, or a comma-separated list of them` });
      else return values.map(convert);
      return z.NEVER;
    });

/** Query of both reports (spec: Reports). A missing date is a 400 (reports/routes.ts); unknown parameters are refused (shared/strict-queries.ts). */
export const ReportQuery = z
  .object({
    date_from: ReportDate.describe('first day, inclusive, in the shop time zone'),
    date_to: ReportDate.describe(`last day, inclusive, in the shop time zone; at most ${REPORT_MAX_DAYS} days from date_from, both included`),
    group_by: z.enum(REPORT_GROUPINGS).default('total'),
    product_id: commaList(isPositiveId, Number, 'a positive integer').optional().describe('one id or a comma-separated list: orders having a line with one of these products'),
    sku: commaList((sku) => sku.length <= 255 && plainText(sku), String, 'a SKU of at most 255 characters').optional().describe('one SKU or a comma-separated list: orders having a line with one of these SKUs'),
    status: positiveId.optional().describe('order_status_id'),
    payment_status: z.enum(['paid', 'unpaid']).optional(),
    customer_email: z.string().trim().min(1).max(255).refine(plainText, 'must not contain control characters').optional().describe('the order e-mail, compared case-insensitively'),
  })
  .superRefine((query, ctx) => {
    if (dayNumber(query.date_from) === null || dayNumber(query.date_to) === null) return;
    const problem = dateRangeProblem(query.date_from, query.date_to);
    if (problem) ctx.addIssue({ code: 'custom', path: ['date_to'], message: problem });
  });
export type ReportQuery = z.output<typeof ReportQuery>;

const money = z.string().meta({ example: '1234.50' });
const bucketDate = z.string().describe('the day; for week the Monday of the ISO week; for month its first day (YYYY-MM-DD)');

export const SalesBucket = z
  .object({ date: bucketDate, orders_count: z.number(), total_revenue: money, paid_orders_count: z.number(), paid_revenue: money })
  .meta({ id: 'ShopSalesBucket' });

export const SalesReport = z
  .object({
    date_from: z.string(),
    date_to: z.string(),
    currency: z.string(),
    total_revenue: money,
    orders_count: z.number(),
    paid_revenue: money,
    paid_orders_count: z.number(),
    avg_order_value: money,
    buckets: z.array(SalesBucket).optional().describe('with group_by day, week or month: every bucket of the range, empty ones with zeros'),
  })
  .meta({ id: 'ShopSalesReport' });

export const PaymentTypeAmount = z
  .object({ payment_type: z.string().nullable().describe('payment method name at placing time; null when the order had none'), count: z.number(), amount: money })
  .meta({ id: 'ShopPaymentTypeAmount' });

export const PaymentsBucket = z
  .object({ date: bucketDate, count: z.number(), amount: money, by_payment_type: z.array(PaymentTypeAmount) })
  .meta({ id: 'ShopPaymentsBucket' });

export const PaymentsReport = z
  .object({
    date_from: z.string(),
    date_to: z.string(),
    currency: z.string(),
    total_paid: money,
    count: z.number(),
    by_payment_type: z.array(PaymentTypeAmount),
    buckets: z.array(PaymentsBucket).optional().describe('with group_by day, week or month: every bucket of the range, empty ones with zeros'),
  })
  .meta({ id: 'ShopPaymentsReport' });
