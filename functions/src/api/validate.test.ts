import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ApiEnv } from './deps';
import { handleError } from './middleware/errors';
import { jsonBody, query } from './validate';

const app = new Hono<ApiEnv>()
  .post('/body', jsonBody(z.object({ name: z.string().min(2, 'Name is too short').optional() })), (c) =>
    c.json(c.req.valid('json')),
  )
  .get('/query', query(z.object({ days: z.coerce.number().int().min(1, 'At least one day') })), (c) =>
    c.json(c.req.valid('query')),
  )
  .onError(handleError);

const post = (body: string | undefined, type: string | undefined = 'application/json') =>
  app.request('/body', { method: 'POST', body, headers: type ? { 'content-type': type } : {} });

describe('jsonBody', () => {
  it('hands the parsed body to the handler', async () => {
    const res = await post('{"name":"Ada"}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'Ada' });
  });

  it('reads an empty body as {}, with or without a JSON content type', async () => {
    for (const res of [await post(''), await post('  '), await post(undefined, undefined)]) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
    }
  });

  it('answers text that is not JSON with 400 and its own message', async () => {
    const res = await post('{"name":');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Malformed JSON body' });
  });

  it("answers an invalid body with 400, the first issue's message and every issue", async () => {
    const res = await post('{"name":"A"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Name is too short',
      issues: [{ path: 'name', message: 'Name is too short' }],
    });
  });
});

describe('query', () => {
  it('hands the coerced query to the handler, a repeated key with its first value', async () => {
    const res = await app.request('/query?days=3&days=7');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ days: 3 });
  });

  it('answers an invalid query with 400 and the issue', async () => {
    const res = await app.request('/query?days=0');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'At least one day',
      issues: [{ path: 'days', message: 'At least one day' }],
    });
  });
});
