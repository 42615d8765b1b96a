import type { AudiobookGrantInput, GrantActivities } from '../../activities/access/grants.ts';
import { grantResult, type GrantResult } from './steps/grant-result.ts';
import { handOn } from './steps/hand-on.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { LOCAL_DB_STEP } from '../shared/activity-profiles.ts';

const grants = activitiesOf<GrantActivities>(LOCAL_DB_STEP);

export type GrantAudiobookAccessInput = AudiobookGrantInput;

/** Audiobook grant: the participant is created and invited when absent, then given the audiobook (one local step). */
export async function grantAudiobookAccess(input: GrantAudiobookAccessInput): Promise<GrantResult> {
  const step = await grants.grantAudiobook(input);
  await handOn(input.platformId, step);
  return grantResult(step);
}
