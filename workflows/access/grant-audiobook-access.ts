import type { AudiobookGrantInput } from '../../activities/access/grants.ts';
import { localDb } from '../shared/activity-proxies.ts';
import { grantResult, type GrantResult } from './steps/grant-result.ts';
import { handOn } from './steps/hand-on.ts';

export type GrantAudiobookAccessInput = AudiobookGrantInput;

/** Audiobook grant: the participant is created and invited when absent, then given the audiobook (one local step). */
export async function grantAudiobookAccess(input: GrantAudiobookAccessInput): Promise<GrantResult> {
  const step = await localDb.grantAudiobook(input);
  await handOn(input.platformId, step);
  return grantResult(step);
}
