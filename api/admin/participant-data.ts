import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody, ValidationErrorBody, data } from '../shared/schemas.ts';
import { EraseBody, ErasureParams, ErasureReply, ErasureStartedReply, PersonEmailQuery, PersonalDataExportReply, erasureReply, personalDataExport, requestPersonalDataErasure } from './personal-data.ts';
import { usePlatform } from './platform-scope.ts';
import { PlatformParams } from './schemas.ts';

/** A participant's data on request (DESIGN.md section 5, issue 29): export, erasure, the erasure's result. */
export const participantDataAdminRoutes: FastifyPluginAsyncZod = async (app) => {

  app.get(
    '/platforms/:platform_id/participants/export',
    {
      schema: {
        operationId: 'admin.platforms.participants.export',
        summary: 'Everything the platform holds about one person',
        description:
          'The participant, enrolments, access sources, audiobooks, progress, quiz results, access orders, mails sent and events about them, the e-mail compared without letter case. An unknown person gets the same document with every list empty.',
        params: PlatformParams,
        querystring: PersonEmailQuery,
        response: { 200: data(PersonalDataExportReply), 400: ValidationErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await usePlatform(request.em, request.params.platform_id);
      return { data: await personalDataExport(request.em, 'platform', request.params.platform_id, request.query.email) };
    },
  );

  app.post(
    '/platforms/:platform_id/participants/erase',
    {
      schema: {
        operationId: 'admin.platforms.participants.erase',
        summary: "Erases a person's data from the platform, as a workflow",
        description:
          'Starts the erasure (`platform/<id>/participant-erasure/<hash of the e-mail>`): the participant removed with enrolments, progress and quiz results; access orders kept with the e-mail replaced; mails, events and the audit log redacted; `participant_erased` to the webhooks. Concurrent and repeated requests make one erasure; read its result at `.../participants/erasures/:erasure_id`.',
        params: PlatformParams,
        body: EraseBody,
        response: { 202: data(ErasureStartedReply), 400: ValidationErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await usePlatform(request.em, request.params.platform_id);
      const started = await requestPersonalDataErasure({ em: request.em, workflows: app.workflows, secretsKey: app.secretsKey }, 'platform', request.params.platform_id, request.body.email);
      return reply.code(202).send({ data: started });
    },
  );

  app.get(
    '/platforms/:platform_id/participants/erasures/:erasure_id',
    {
      schema: {
        operationId: 'admin.platforms.participants.erasures.get',
        summary: "An erasure's status and what it changed per kind of data",
        params: PlatformParams.extend(ErasureParams.shape),
        response: { 200: data(ErasureReply), 400: ValidationErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await usePlatform(request.em, request.params.platform_id);
      return { data: await erasureReply(request.em, 'platform', request.params.platform_id, request.params.erasure_id) };
    },
  );
};
