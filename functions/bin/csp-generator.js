#!/usr/bin/env node
// The CLI's entry point (package.json "bin"): runs the TypeScript sources through tsx, as `npm start` does,
// so it works right after `npm install` / `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
