import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './errors.ts';

/**
 * `{field: [messages]}`. Built on a prototype-less object, so a field named `__proto__` or
 * `constructor` is just a field.
 */
export type FieldErrors = Record<string, string[]>;

export function fieldErrorMap(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

/** 422 `{error, errors: {field: [messages]}}`, the configuration (and shop) interface's validation failure. */
export const unprocessable = (errors: FieldErrors, message = 'validation failed') => new HttpError(422, message, { error: message, errors });

/**
 * How an interface answers a request that fails its schema. The access interface and the operator
 * API: 400 with qualified names (`body.email`, `querystring.page`). The configuration interface
 * (and the shop's): 422 with body fields named as sent (`primary_color`, `footer.content`) and an
 * unknown field named itself ("is not a writable field").
 */
export interface ValidationReplyStyle {
  status: 400 | 422;
  fieldNames: 'qualified' | 'as-sent';
}

export const QUALIFIED_400: ValidationReplyStyle = { status: 400, fieldNames: 'qualified' };
export const AS_SENT_422: ValidationReplyStyle = { status: 422, fieldNames: 'as-sent' };

export interface ValidationIssue {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Input refused before the route's schema is applied (api/shared/input-guard.ts: NUL, unpaired
 * surrogates, deep nesting), shaped like a schema failure so that every interface answers it in
 * its own style.
 */
export class InputRefused extends Error {
  constructor(
    /** `body`, `querystring` or `params`. */
    readonly validationContext: string,
    readonly validation: readonly ValidationIssue[],
  ) {
    super('validation failed');
  }
}

const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join('.');

/** The field errors of one schema failure (`context`: body, querystring, params, headers). */
export function fieldErrors(context: string | undefined, issues: readonly ValidationIssue[], style: ValidationReplyStyle): FieldErrors {
  const errors = fieldErrorMap();
  for (const issue of issues) {
    const path = issue.instancePath.split('/').filter(Boolean).join('.');
    if (style.fieldNames === 'qualified') {
      (errors[joined(context, path)] ??= []).push(issue.message ?? 'is invalid');
      continue;
    }
    const unknownKeys = Array.isArray(issue.params?.keys) ? issue.params.keys.map(String) : [];
    const fields = unknownKeys.length > 0 ? unknownKeys.map((key) => joined(path, key)) : [path];
    for (const field of fields) {
      const name = context === 'body' ? field || 'body' : joined(context, field);
      const unknown = context === 'querystring' ? 'is not a known parameter' : 'is not a writable field';
      (errors[name] ??= []).push(unknownKeys.length > 0 ? unknown : (issue.message ?? 'is invalid'));
    }
  }
  return errors;
}

/** The reply to a schema failure (or an input refusal) in the given style; null for any other error. */
export function validationFailure(error: FastifyError | InputRefused, style: ValidationReplyStyle): HttpError | null {
  if (!(error instanceof InputRefused) && !hasZodFastifySchemaValidationErrors(error)) return null;
  const message = 'validation failed';
  return new HttpError(style.status, message, { error: message, errors: fieldErrors(error.validationContext, error.validation, style) });
}

/**
 * An encapsulated interface's error handler: schema failures in its style; everything else is
 * rethrown to the application's error handler (api/shared/errors-plugin.ts).
 */
export function validationErrorHandler(style: ValidationReplyStyle) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const failure = validationFailure(error, style);
    if (!failure) throw error;
    reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
    return reply.code(failure.statusCode).send(failure.body);
  };
}
