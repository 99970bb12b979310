// The web app's configuration, read once from Vite's build-time environment. One string, checked by hand:
// a schema library here would be part of every page's first download.

function apiUrl(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new Error('VITE_API_URL must be a string');
  return value;
}

export const env = {
  /** Prefix of every API call; empty means same origin (the product serves the app and /api together). */
  VITE_API_URL: apiUrl(import.meta.env.VITE_API_URL),
} as const;
