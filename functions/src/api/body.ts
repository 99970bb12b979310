// Reads and validates a JSON body with a zod schema from shared/, answering 400 with clear messages.
import type { Context } from 'hono';
import type * as z from 'zod';
import { AppError } from '../errors';

export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AppError(400, 'Malformed JSON body');
    }
  }
  return parseWith(schema, raw);
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new AppError(400, issues[0]?.message ?? 'Invalid request', { issues });
  }
  return parsed.data;
}
