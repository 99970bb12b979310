// The one API client of the app (spec section 7, "Generic behaviour"), typed by the server's own routes
// (AppType: paths, inputs and answers come from functions/src/api, never written again here):
// - reads are GET with credentials included; a 401 on a read yields null, not an error;
// - writes send JSON (content-type application/json) when a body exists and read the answer as JSON;
// - any non-OK answer throws an Error whose text is `${status}: ${body text || statusText}`.
// The server is imported as a type only: no server code reaches the bundle.
import type { AppType } from '@csp/functions/src/api/app';
import { type ClientResponse, hc } from 'hono/client';
import { env } from '@/config/env';

/** An error answer of the API. `message` keeps the spec's format; `body` is the parsed JSON, if any. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | null;

  constructor(status: number, text: string, statusText: string) {
    super(`${status}: ${text || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = parseErrorBody(text);
  }

  /** The server's own message (`{"message": ...}`), when it sent one. */
  get serverMessage(): string | undefined {
    return this.body?.message;
  }
}

export interface ApiErrorBody {
  message?: string;
  issues?: Array<{ path: string; message: string }>;
  [key: string]: unknown;
}

function parseErrorBody(text: string): ApiErrorBody | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as ApiErrorBody)
      : null;
  } catch {
    return null;
  }
}

/** Spec section 6: an error whose text begins with '401: ' and contains 'Unauthorized'. */
export function isUnauthorizedError(error: unknown): boolean {
  return (
    error instanceof Error && error.message.startsWith('401: ') && error.message.includes('Unauthorized')
  );
}

/** A response as far as these helpers read it (hc's typed one, or a plain fetch one). */
type Answer = Pick<Response, 'ok' | 'status' | 'statusText' | 'text'>;
/** The JSON body type of an API call's answer (a union over its success statuses). */
export type JsonOf<R> = R extends ClientResponse<infer T, number, 'json'> ? T : never;

async function throwIfNotOk(res: Answer): Promise<void> {
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, text, res.statusText);
  }
}

async function readJson<T>(res: Answer): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

const client = (headers: Record<string, string>) =>
  hc<AppType>(env.VITE_API_URL, { headers, init: { credentials: 'include' } }).api;

/** The API: `api.domains[':id'].$get({ param: { id: pathParam(id) } })`, handed to one of the helpers below. */
export const api = client({ accept: 'application/json' });
/** The same API for files it serves as text (an export): no JSON accept header. */
export const fileApi = client({});

/** A path parameter, encoded (the typed client puts it in the path as given). */
export const pathParam = (value: string) => encodeURIComponent(value);

/** A read (GET); null when the session is missing (401). An abort signal goes in the call's `init`. */
export async function apiGet<R extends ClientResponse<unknown>>(
  request: Promise<R>,
): Promise<JsonOf<R> | null> {
  const res = await request;
  if (res.status === 401) {
    await res.text(); // drain the body so the request completes
    return null;
  }
  await throwIfNotOk(res);
  return readJson<JsonOf<R>>(res);
}

/** A write (POST, PUT, PATCH, DELETE); its JSON body, if any, is the call's `json` argument. */
export async function apiRequest<R extends ClientResponse<unknown>>(request: Promise<R>): Promise<JsonOf<R>> {
  const res = await request;
  await throwIfNotOk(res);
  return readJson<JsonOf<R>>(res);
}

/** A file the API serves as text (an export), with the same error handling as the other calls. */
export async function apiGetText(request: Promise<ClientResponse<unknown>>): Promise<string> {
  const res = await request;
  await throwIfNotOk(res);
  return res.text();
}
