// The one fetch wrapper of the app (spec section 7, "Generic behaviour"):
// - reads are GET with credentials included; a 401 on a read yields null, not an error;
// - writes send JSON (content-type application/json) when a body exists and read the answer as JSON;
// - any non-OK answer throws an Error whose text is `${status}: ${body text || statusText}`.
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

async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, text, res.statusText);
  }
}

async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

const url = (path: string) => `${env.VITE_API_URL}${path}`;

/** GET a resource; null when the session is missing (401). */
export async function apiGet<T>(path: string, init?: { signal?: AbortSignal }): Promise<T | null> {
  const res = await fetch(url(path), {
    method: 'GET',
    credentials: 'include',
    headers: { accept: 'application/json' },
    signal: init?.signal,
  });
  if (res.status === 401) {
    await res.text(); // drain the body so the request completes
    return null;
  }
  await throwIfNotOk(res);
  return readJson<T>(res);
}

/** A write (POST, PUT, PATCH, DELETE), with an optional JSON body. */
export async function apiRequest<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url(path), {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(res);
  return readJson<T>(res);
}

/** GET a file the API serves as text (an export), with the same error handling as the other calls. */
export async function apiGetText(path: string): Promise<string> {
  const res = await fetch(url(path), { method: 'GET', credentials: 'include' });
  await throwIfNotOk(res);
  return res.text();
}
