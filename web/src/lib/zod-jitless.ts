// zod compiles object parsers with `new Function` unless told not to, and even its probe for eval support
// fires a `securitypolicyviolation` under our script-src 'self' (no 'unsafe-eval'). Imported first by main.
// From zod's core only: its configuration is a global every zod module reads, and the rest of zod loads
// with the screens that parse (the first download stays without it).
import { config } from 'zod/v4/core';

config({ jitless: true });
