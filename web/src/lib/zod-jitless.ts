// zod compiles object parsers with `new Function` unless told not to, and even its probe for eval support
// fires a `securitypolicyviolation` under our script-src 'self' (no 'unsafe-eval'). Imported first by main.
import { config } from 'zod/mini';

config({ jitless: true });
