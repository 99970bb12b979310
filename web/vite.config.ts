// Vite config of the web app. The build must stay compatible with our own strict CSP
// (script-src 'self'; style-src 'self'): no inline scripts, no data: scripts, no inline styles in HTML.
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The modules of the 'signed-in' chunk (below), by path: none of them is used by the landing page or /auth. */
const SIGNED_IN_SHELL = [
  'web/src/app/routes/signed-in-layout.tsx',
  'web/src/features/auth/components/user-menu.tsx',
  'web/src/features/auth/components/logout-button.tsx',
  'web/src/features/auth/api/logout.ts',
  'web/src/features/achievements/',
  'shared/src/achievements/',
  'web/src/components/analysis-status-badge.tsx',
  'web/src/components/policy/policy-verdict.tsx',
  'shared/src/csp/policy-audit.ts',
  'shared/src/csp/grade.ts',
  'shared/src/csp/header-limits.ts',
  'shared/src/schemas/crawl-limits.ts',
  'shared/src/text/order.ts',
  'web/src/features/analyses/utils/progress.ts',
  'web/src/features/analyses/utils/security-score.ts',
  'web/src/features/domains/components/domains-card.tsx',
];

export default defineConfig({
  root,
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The polyfill is an inline script; every browser we support has native modulepreload.
    modulePreload: { polyfill: false },
    // Never turn an asset into a data: URL (a data: script or worker would break script-src 'self').
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What every page runs first: one chunk (with the entry) rather than a few.
            { name: 'app', tags: ['$initial'], priority: 5 },
            // The icons and the shared UI pieces of the lazily loaded screens, one chunk each: split by
            // which screens share them, they were some 30 files of 1 KB, and a screen waited for them in
            // rounds of six (HTTP/1.1 opens six connections to an origin).
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 4 },
            // What every signed-in screen (and the dashboard) runs before its own module: the frame with the
            // user menu and the achievement overlay, and the small pieces the dashboard and the domain screen
            // share. Split by who shares them they were ten files of 0.1–4.5 KB, and on a page load the
            // dashboard's first view waited for them behind its data reads on the six connections.
            // The rule that sends a visitor to /auth and a signed-in user from it: /auth's too, so not above.
            { name: 'session', test: /[\\/](protected-route\.tsx|return-path\.ts)$/, priority: 2 },
            {
              name: 'signed-in',
              test: (id: string) => SIGNED_IN_SHELL.some((part) => id.replaceAll('\\', '/').includes(part)),
              priority: 1,
            },
            {
              name: 'ui',
              test: /[\\/]web[\\/]src[\\/]components[\\/](ui|layouts)[\\/]|[\\/]node_modules[\\/]@tanstack[\\/]/,
              priority: 3,
            },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
});
