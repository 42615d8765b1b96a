import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { PersonalDataTenant } from '../../domain/shared/personal-data.ts';
import { ErrorBody, ValidationErrorBody, data } from '../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../shared/validation-errors.ts';
import type { TenantParams } from './schemas.ts';
import { EraseBody, ErasureParams, ErasureReply, ErasureStartedReply, PersonEmailQuery, PersonalDataExportReply, erasureReply, personalDataExport, requestPersonalDataErasure } from './personal-data.ts';

export interface PersonalDataRoutes<P extends TenantParams> {
  tenant: PersonalDataTenant;
  /** `/platforms/:platform_id/participants`, `/shops/:shop_id/customers`. */
  base: string;
  /** The operation ids' stem: `admin.platforms.participants`. */
  operationId: string;
  /** The tenant's path parameter. */
  params: P;
  /** The tenant's id once it is known to exist (404 otherwise). */
  tenantOf(em: EntityManager, params: z.infer<P>): Promise<string>;
  /** How a request that fails validation answers: 400 (the platform's operator API) or 422 naming the fields as sent (the shop's). */
  invalid: 400 | 422;
  exportSummary: string;
  exportDescription: string;
  eraseSummary: string;
  eraseDescription: string;
}

/**
 * A person's data on request (DESIGN.md sections 5 and 8, issue 29), the same three routes for
 * each kind of tenant: the export document, the erasure request and the erasure's result.
 */
export function personalDataRoutes<P extends TenantParams>(o: PersonalDataRoutes<P>): FastifyPluginAsyncZod {
  const failures = o.invalid === 400 ? { 400: ValidationErrorBody, 404: ErrorBody } : { 404: ErrorBody, 422: ValidationErrorBody };
  return async (app) => {
    if (o.invalid === 422) app.setErrorHandler(validationErrorHandler(AS_SENT_422));

    app.get(
      `${o.base}/export`,
      {
        schema: {
          operationId: `${o.operationId}.export`,
          summary: o.exportSummary,
          description: o.exportDescription,
          params: o.params,
          querystring: PersonEmailQuery,
          response: { 200: data(PersonalDataExportReply), ...failures },
        },
      },
      async (request) => {
        const tenantId = await o.tenantOf(request.em, request.params as z.infer<P>);
        return { data: await personalDataExport(request.em, o.tenant, tenantId, request.query.email) };
      },
    );

    app.post(
      `${o.base}/erase`,
      {
        schema: {
          operationId: `${o.operationId}.erase`,
          summary: o.eraseSummary,
          description: o.eraseDescription,
          params: o.params,
          body: EraseBody,
          response: { 202: data(ErasureStartedReply), ...failures },
        },
      },
      async (request, reply) => {
        const tenantId = await o.tenantOf(request.em, request.params as z.infer<P>);
        const started = await requestPersonalDataErasure({ em: request.em, workflows: app.workflows, secretsKey: app.secretsKey }, o.tenant, tenantId, request.body.email);
        return reply.code(202).send({ data: started });
      },
    );

    app.get(
      `${o.base}/erasures/:erasure_id`,
      {
        schema: {
          operationId: `${o.operationId}.erasures.get`,
          summary: "An erasure's status and what it changed per kind of data",
          params: o.params.extend(ErasureParams.shape),
          response: { 200: data(ErasureReply), ...failures },
        },
      },
      async (request) => {
        const tenantId = await o.tenantOf(request.em, request.params as z.infer<P>);
        return { data: await erasureReply(request.em, o.tenant, tenantId, request.params.erasure_id) };
      },
    );
  };
}
