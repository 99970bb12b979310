// Form validation with the API's own zod schemas: the first message per field, keyed by field name.
import type * as z from 'zod';
import { ApiError } from './api-client';

export type FieldErrors = Record<string, string | undefined>;

export type ValidationResult<T> = { success: true; data: T } | { success: false; errors: FieldErrors };

export function validateForm<S extends z.ZodType>(schema: S, values: unknown): ValidationResult<z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { success: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
  }
  return { success: false, errors };
}

/** Field messages a 400 answer carried (`issues: [{path, message}]`), keyed by the first path segment. */
export function serverFieldErrors(error: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (error instanceof ApiError && Array.isArray(error.body?.issues)) {
    for (const issue of error.body.issues) {
      const key = String(issue.path ?? '').split('.')[0] || 'form';
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

/** Moves focus to the first field marked invalid, once React has rendered the messages. */
export function focusFirstInvalid(form: HTMLFormElement) {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

/** The server's own message when it refused the request (a 4xx): something the user can act on. A 5xx or a
 *  network failure has none, and the form says its generic text instead; a 401 (the session ended) is the
 *  session handler's to say (`query-client.ts`). */
export function refusalMessage(error: unknown): string | undefined {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401
    ? error.serverMessage
    : undefined;
}

/** A refusal for the form to show: each message at the field it names (`issues`), and a message that names
 *  no field under `form` (shown above the submit button by `FormError`). */
export function serverFormErrors(error: unknown): FieldErrors {
  const errors = serverFieldErrors(error);
  const message = refusalMessage(error);
  if (message && Object.keys(errors).length === 0) errors.form = message;
  return errors;
}
