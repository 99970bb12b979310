// Vite config of the web app. The build must stay compatible with our own strict CSP
// (script-src 'self'; style-src 'self'): no inline scripts, no data: scripts, no inline styles in HTML.
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

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
            { name: 'app', tags: ['$initial'], priority: 3 },
            // The icons and the shared UI pieces of the lazily loaded screens, one chunk each: split by
            // which screens share them, they were some 30 files of 1 KB, and a screen waited for them in
            // rounds of six (HTTP/1.1 opens six connections to an origin).
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
            {
              name: 'ui',
              test: /[\\/]web[\\/]src[\\/]components[\\/](ui|layouts)[\\/]|[\\/]node_modules[\\/]@tanstack[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
});
