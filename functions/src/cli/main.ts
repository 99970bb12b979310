// `npx csp-generator <command> …` (functions/bin/csp-generator.js): the product in a deploy pipeline.
import { runCli } from './cli';
import { createIo } from './io';

// Lambda runs Node 22; the SDK's notice about Node 20 is noise on a developer's machine.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const io = createIo(process.env, process.stdout, process.stderr);
const code = await runCli(process.argv.slice(2), io);
// Let stdout drain (a pipe may be slower than us), then end: the browser's handles must not keep us alive.
process.stdout.write('', () => process.exit(code));
