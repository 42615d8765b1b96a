import { ApplicationFailure } from '@temporalio/common';
import { commandPerson, COMMAND_PEOPLE_DAYS, type CommandPerson } from '../../db/repositories/access/command-seq.ts';
import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';

/**
 * The address and name of runs started before issue 41 item 3. New runs carry neither: the step
 * reads them from the command's row (`access_command_people`, by platform and `seq`). The fields
 * go once no such run is open (docs/decisions/operability.md).
 */
export interface LegacyPerson {
  /** Normalised (lower-case) e-mail. */
  email?: string;
  name?: string | null;
}

/**
 * Whom a grant or revoke command is for, inside the step's transaction: the input's person (a run
 * started before issue 41 item 3), else the command's row. The row is gone only when the command
 * waited longer than rows are kept or the person was erased meanwhile: the command then fails for
 * good rather than apply to nobody or to a guess.
 */
export async function personOfCommand(tx: Sql, input: LegacyPerson & { platformId: string; seq: number }): Promise<CommandPerson> {
  if (input.email !== undefined) return { email: input.email, name: input.name ?? null };
  const person = await commandPerson(tx, input.platformId, input.seq);
  if (!person) {
    throw ApplicationFailure.nonRetryable(`the person of access command ${input.seq} is no longer recorded (rows are kept ${COMMAND_PEOPLE_DAYS} days; or the person was erased)`, 'AccessCommandPersonGone');
  }
  return person;
}
