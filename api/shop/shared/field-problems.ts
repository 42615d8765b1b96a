import type { FieldProblem } from '../../../domain/shop/subscription-rules.ts';
import type { HttpError } from '../../shared/errors.ts';
import { fieldErrorMap, unprocessable } from '../../shared/validation-errors.ts';

/** 422 `{error, errors}` of the domain's field problems, each named as sent (inside `wrapper` when the body has one). */
export function refusedFields(problems: readonly FieldProblem[], wrapper?: string): HttpError {
  const errors = fieldErrorMap();
  for (const { field, message } of problems) (errors[wrapper ? `${wrapper}.${field}` : field] ??= []).push(message);
  return unprocessable(errors);
}
