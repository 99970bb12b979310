// Request validation with the zod schemas from shared/, as Hono validators: the handler reads the parsed input
// with `c.req.valid(...)`, and the input types reach the web client through AppType. A failure answers 400
// with the first issue's message and every issue (`{"message", "issues"}`).
import type { Context, MiddlewareHandler, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import type * as z from 'zod';
import { AppError } from '../errors';
import type { ApiEnv } from './deps';

/** What a validator middleware checks: the OpenAPI document (openapi.ts) reads it from the routes themselves. */
export interface Validation {
  target: 'json' | 'query';
  schema: z.ZodType;
}
const validations = new WeakMap<object, Validation>();

/** The validation a route's handler performs, if it is one of ours. */
export const validationOf = (handler: object): Validation | undefined => validations.get(handler);

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new AppError(400, issues[0]?.message ?? 'Invalid request', { issues });
  }
  return parsed.data;
}

/**
 * The body as JSON: an empty body is `{}` (so a schema of optional fields accepts a bodyless write), text that
 * is not JSON a 400. The CSRF guard has already refused any non-empty body that is not application/json.
 */
async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(400, 'Malformed JSON body');
  }
}

type Validated<T extends keyof ValidationTargets, In, Out> = { in: { [K in T]: In }; out: { [K in T]: Out } };

/**
 * Validates the JSON body. Hono's own `validator('json')` would answer an empty body sent as JSON as malformed,
 * in its own words; this reads the body as above and hands the result over the way that validator does.
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<ApiEnv, string, Validated<'json', z.input<S>, z.output<S>>> {
  const validate: MiddlewareHandler<
    ApiEnv,
    string,
    Validated<'json', z.input<S>, z.output<S>>
  > = async function jsonBodyValidator(c, next) {
    c.req.addValidatedData('json', parseWith(schema, await readJson(c)) as object);
    await next();
  };
  validations.set(validate, { target: 'json', schema });
  return validate;
}

/** A query string's fields as the client sends them: strings, a closed vocabulary as its words. */
type QueryIn<T> = { [K in keyof T]: NonNullable<T[K]> extends string ? T[K] : string };

/** Validates the query string; a repeated key counts with its first value, as `c.req.query()` reads it. */
export function query<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<ApiEnv, string, Validated<'query', QueryIn<z.input<S>>, z.output<S>>> {
  const validate: MiddlewareHandler = validator('query', (_value, c): unknown =>
    parseWith(schema, c.req.query()),
  );
  validations.set(validate, { target: 'query', schema });
  return validate;
}
