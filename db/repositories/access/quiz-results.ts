import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { QuizResult, type IQuizResult } from '../../entities/index.ts';
import { insertRow } from '../shared/insert-row.ts';

/** One reported quiz result (a learner may report the same quiz again: each is its own row). */
export function recordQuizResult(em: EntityManager, values: RequiredEntityData<IQuizResult>): Promise<IQuizResult> {
  return insertRow(em, QuizResult, values);
}
