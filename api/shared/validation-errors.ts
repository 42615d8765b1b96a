import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './errors.ts';

type FieldErrors = Record<string, string[]>;

/** 422 `{error, errors: {field: [messages]}}`, the configuration interface's validation failure. */
export const unprocessable = (errors: FieldErrors, message = 'validation failed') => new HttpError(422, message, { error: message, errors });

interface ValidationIssue {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Field names as sent (`primary_color`, `footer.content`); an unknown field is named itself. */
function fieldErrors(context: string | undefined, issues: readonly ValidationIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.instancePath.split('/').filter(Boolean).join('.');
    const unknownKeys = Array.isArray(issue.params?.keys) ? issue.params.keys.map(String) : [];
    const fields = unknownKeys.length > 0 ? unknownKeys.map((key) => [path, key].filter(Boolean).join('.')) : [path];
    for (const field of fields) {
      const name = context === 'body' ? field || 'body' : [context, field].filter(Boolean).join('.');
      (errors[name] ??= []).push(unknownKeys.length > 0 ? 'is not a writable field' : (issue.message ?? 'is invalid'));
    }
  }
  return errors;
}

/**
 * The configuration interface answers a validation failure with 422 (the access interface keeps
 * its 400). Everything else is rethrown to the application's error handler.
 */
export function configurationErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
    return reply.code(422).send({ error: 'validation failed', errors: fieldErrors(error.validationContext, error.validation) });
  }
  throw error;
}
