// The web app's configuration, read once from Vite's build-time environment and validated.
// zod/mini keeps this out of the first download (the full zod loads with the forms).
import * as z from 'zod/mini';

const envSchema = z.object({
  /** Prefix of every API call; empty means same origin (the product serves the app and /api together). */
  VITE_API_URL: z._default(z.string(), ''),
});

export const env = envSchema.parse(import.meta.env);
