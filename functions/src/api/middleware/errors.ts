// Turns every failure into the API's error body {"message"} (plus "issues" for validation).
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError } from '../../errors';
import { errorFields } from '../../logger';
import type { ApiEnv } from '../deps';

export function handleError(err: Error, c: Context<ApiEnv>) {
  if (err instanceof AppError) {
    return c.json({ message: err.message, ...err.extra }, err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status === 413 ? 'Request body is too large' : err.message || 'Request failed';
    return c.json({ message }, status);
  }
  c.var.log?.error('unhandled error', errorFields(err));
  return c.json({ message: 'Internal server error' }, 500);
}

export function handleNotFound(c: Context<ApiEnv>) {
  return c.json({ message: 'Not found' }, 404);
}
