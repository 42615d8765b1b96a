import type { FieldProblem } from '../../../domain/shop/subscription-rules.ts';
import type { HttpError } from '../../shared/errors.ts';
import { fieldErrorMap, unprocessable } from '../../shared/validation-errors.ts';

/** 422 `{error, errors}` of the domain's field problems, each named as sent (inside a body's wrapper, without it). */
export function refusedFields(problems: readonly FieldProblem[]): HttpError {
  const errors = fieldErrorMap();
  for (const { field, message } of problems) (errors[field] ??= []).push(message);
  return unprocessable(errors);
}
