// `npm run admin -- create <username> [--email <email>]`: makes an admin account, or promotes an existing
// user. Admins are never made by a client request. The password is asked for at the prompt (not echoed),
// or read from ADMIN_PASSWORD for scripts. Works on the local data (next to a running `npm start`, or on
// its own) and, with DYNAMODB_ENDPOINT unset and TABLE_NAME/AWS credentials set, on a deployed table.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { registerSchema } from '@csp/shared/schemas/auth';
import { hashPassword } from '../auth/password';
import { loadConfig } from '../config';
import { createDb } from '../store/db';
import { ensureTable } from '../store/table';
import { createUser, getUserByUsername, updateUserFields } from '../store/users';
import { type DynamoLocal, startDynamoLocal } from './dynamo-local';
import { ENDPOINT_FILE } from './endpoint-file';

function usage(): never {
  process.stderr.write('Usage: npm run admin -- create <username> [--email <email>]\n');
  process.exit(2);
}

async function readPassword(): Promise<string> {
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8').split('\n')[0] ?? '';
  }
  process.stdout.write('Password (at least 6 characters): ');
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let value = '';
  return new Promise((ok) => {
    process.stdin.on('data', (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          process.stdin.setRawMode(false);
          process.stdin.pause();
          process.stdout.write('\n');
          ok(value);
          return;
        }
        if (ch === '\u0003') process.exit(130);
        if (ch === '\u007f') value = value.slice(0, -1);
        else value += ch;
      }
    });
  });
}

// Lambda runs Node 22; locally Node 20 is supported, so the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

async function main() {
  const [command, username, ...rest] = process.argv.slice(2);
  if (command !== 'create' || !username) usage();
  const emailIndex = rest.indexOf('--email');
  const email = emailIndex >= 0 ? (rest[emailIndex + 1] ?? usage()) : null;
  const config = loadConfig();
  const dataDir = resolve(config.DATA_DIR);

  let endpoint = config.DYNAMODB_ENDPOINT;
  let local: DynamoLocal | null = null;
  if (!endpoint && !process.env.AWS_EXECUTION_ENV && !process.env.TABLE_NAME) {
    try {
      endpoint = readFileSync(join(dataDir, ENDPOINT_FILE), 'utf8').trim();
      await fetch(endpoint).catch(() => {
        throw new Error('stale');
      });
    } catch {
      process.stdout.write('Starting DynamoDB Local on the local data...\n');
      local = await startDynamoLocal({ dataDir });
      endpoint = local.endpoint;
    }
  }
  try {
    const db = createDb({
      table: config.TABLE_NAME,
      endpoint,
      region: endpoint ? 'local' : config.AWS_REGION,
    });
    if (endpoint) await ensureTable(db);
    const existing = await getUserByUsername(db, username);
    if (existing) {
      await updateUserFields(db, existing.id, { role: 'admin' });
      process.stdout.write(`${existing.username} is now an admin.\n`);
      return;
    }
    const password = await readPassword();
    // The same rules as registration through the API (one definition: the shared schema).
    const parsed = registerSchema
      .pick({ username: true, password: true })
      .extend({ email: registerSchema.shape.email.nullable() })
      .safeParse({ username, password, email });
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
    const user = await createUser(db, {
      username: parsed.data.username,
      email: parsed.data.email,
      passwordHash: await hashPassword(parsed.data.password, config.SCRYPT_LOG_N),
      role: 'admin',
    });
    process.stdout.write(`Admin ${user.username} created.\n`);
  } finally {
    await local?.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
