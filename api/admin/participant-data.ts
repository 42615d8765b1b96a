import { personalDataRoutes } from './personal-data-routes.ts';
import { usePlatform } from './platform-scope.ts';
import { PlatformParams } from './schemas.ts';

/** A participant's data on request (DESIGN.md section 5, issue 29): export, erasure, the erasure's result. */
export const participantDataAdminRoutes = personalDataRoutes({
  tenant: 'platform',
  base: '/platforms/:platform_id/participants',
  operationId: 'admin.platforms.participants',
  params: PlatformParams,
  tenantOf: async (em, params) => (await usePlatform(em, params.platform_id)).id,
  invalid: 400,
  exportSummary: 'Everything the platform holds about one person',
  exportDescription:
    'The participant, enrolments, access sources, audiobooks, progress, quiz results, access orders, queued access commands, mails sent and events about them, the e-mail compared without letter case. An unknown person gets the same document with every list empty.',
  eraseSummary: "Erases a person's data from the platform, as a workflow",
  eraseDescription:
    'Starts the erasure (`platform/<id>/participant-erasure/<hash of the e-mail>`): the participant removed with enrolments, progress and quiz results; access orders kept with the e-mail replaced; mails, events and the audit log redacted; `participant_erased` to the webhooks. Concurrent and repeated requests make one erasure; read its result at `.../participants/erasures/:erasure_id`.',
});
