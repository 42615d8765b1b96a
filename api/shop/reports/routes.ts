import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paymentsReportRows, salesReportRows, type PaymentsRow, type ReportFilter } from '../../../db/repositories/shop/reports.ts';
import { amount, averageOrderValue, bucketKeys, fillBuckets } from '../../../domain/shop/reports.ts';
import { badRequest } from '../../shared/errors.ts';
import { data, ValidationErrorBody } from '../../shared/schemas.ts';
import { shopKeyOf } from '../auth.ts';
import { PaymentsReport, ReportQuery, SalesReport } from './schemas.ts';

const REQUIRED_REPORT_PARAMETERS = ['date_from', 'date_to'] as const;

function filterOf(shopId: string, q: ReportQuery): ReportFilter {
  return {
    shopId,
    dateFrom: q.date_from,
    dateTo: q.date_to,
    productIds: q.product_id,
    skus: q.sku,
    orderStatusId: q.status,
    paymentStatus: q.payment_status,
    customerEmail: q.customer_email,
  };
}

const byType = (rows: PaymentsRow[]) => rows.map((r) => ({ payment_type: r.payment_type, count: r.count, amount: amount(r.amount) }));

/** Reports (spec: Reports): one aggregate statement per reply, in the shop's time zone and currency. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { scope: 'read' } as const;
  // Spec, Errors: a missing required parameter is a 400 (a present but bad one stays a 422 naming it).
  app.addHook('preValidation', async (request) => {
    const sent = (request.query ?? {}) as Record<string, unknown>;
    const missing = REQUIRED_REPORT_PARAMETERS.filter((name) => sent[name] === undefined);
    if (missing.length > 0) throw badRequest('missing required parameters', Object.fromEntries(missing.map((name) => [`querystring.${name}`, ['is required']])));
  });

  app.get(
    '/reports/sales',
    { config, schema: { operationId: 'shop.reports.sales', summary: 'Reports sales of placed orders', description: 'Placed orders (canceled and returned skipped) by `placed_at`.', querystring: ReportQuery, response: { 200: data(SalesReport), 400: ValidationErrorBody } } },
    async (request) => {
      const key = shopKeyOf(request);
      const q = request.query;
      const rows = await salesReportRows(request.em, filterOf(key.shopId, q), q.group_by);
      const [total, ...bucketRows] = rows;
      const revenue = amount(total?.total_revenue);
      const count = total?.orders_count ?? 0;
      const report = {
        date_from: q.date_from,
        date_to: q.date_to,
        currency: key.currency,
        total_revenue: revenue,
        orders_count: count,
        paid_revenue: amount(total?.paid_revenue),
        paid_orders_count: total?.paid_orders_count ?? 0,
        avg_order_value: averageOrderValue(revenue, count),
      };
      if (q.group_by === 'total') return { data: report };
      const buckets = fillBuckets(
        bucketKeys(q.date_from, q.date_to, q.group_by),
        bucketRows.map((r) => ({
          date: r.date!,
          orders_count: r.orders_count,
          total_revenue: amount(r.total_revenue),
          paid_orders_count: r.paid_orders_count,
          paid_revenue: amount(r.paid_revenue),
        })),
        (date) => ({ date, orders_count: 0, total_revenue: '0.00', paid_orders_count: 0, paid_revenue: '0.00' }),
      );
      return { data: { ...report, buckets } };
    },
  );

  app.get(
    '/reports/payments',
    {
      config,
      schema: { operationId: 'shop.reports.payments', summary: 'Reports payments by payment method', description: 'Paid placed orders by `paid_at`, split by payment method.', querystring: ReportQuery, response: { 200: data(PaymentsReport), 400: ValidationErrorBody } },
    },
    async (request) => {
      const key = shopKeyOf(request);
      const q = request.query;
      const rows = await paymentsReportRows(request.em, filterOf(key.shopId, q), q.group_by);
      const total = rows.find((r) => r.all_dates && r.all_types);
      const report = {
        date_from: q.date_from,
        date_to: q.date_to,
        currency: key.currency,
        total_paid: amount(total?.amount),
        count: total?.count ?? 0,
        by_payment_type: byType(rows.filter((r) => r.all_dates && !r.all_types)),
      };
      if (q.group_by === 'total') return { data: report };
      const typesByDate = new Map<string, PaymentsRow[]>();
      for (const r of rows) if (!r.all_dates && !r.all_types) typesByDate.set(r.date!, [...(typesByDate.get(r.date!) ?? []), r]);
      const buckets = fillBuckets(
        bucketKeys(q.date_from, q.date_to, q.group_by),
        rows
          .filter((r) => !r.all_dates && r.all_types)
          .map((r) => ({ date: r.date!, count: r.count, amount: amount(r.amount), by_payment_type: byType(typesByDate.get(r.date!) ?? []) })),
        (date) => ({ date, count: 0, amount: '0.00', by_payment_type: [] }),
      );
      return { data: { ...report, buckets } };
    },
  );
};
