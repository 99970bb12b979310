// Settings › API tokens: a signed-in user lists, creates and revokes their tokens. Managed only with the
// browser session (a token cannot make or revoke tokens: the token table in middleware/api-token.ts has no
// route here). A new token's value is in the creation answer only, once; the table keeps its hash.
import { API_TOKEN_LIMITS, createApiTokenSchema } from '@csp/shared/schemas/api-token';
import { Hono } from 'hono';
import { apiTokenHash, apiTokenHint, createApiTokenValue } from '../../auth/api-token';
import { AppError, notFound } from '../../errors';
import { createApiToken, listApiTokens, revokeApiToken, toApiToken } from '../../store/api-tokens';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';

export const apiTokenRoutes = new Hono<ApiEnv>()
  .use(requireUser)
  .get('/', async (c) => {
    const tokens = await listApiTokens(c.var.deps.db, currentUser(c).id);
    return c.json(tokens.map(toApiToken));
  })
  .post('/', jsonBody(createApiTokenSchema), async (c) => {
    const { db } = c.var.deps;
    const user = currentUser(c);
    const input = c.req.valid('json');
    if ((await listApiTokens(db, user.id)).length >= API_TOKEN_LIMITS.perUser) {
      throw new AppError(
        409,
        `You have ${API_TOKEN_LIMITS.perUser} API tokens; revoke one before creating another`,
      );
    }
    const value = createApiTokenValue();
    const record = await createApiToken(db, {
      userId: user.id,
      hash: apiTokenHash(value),
      hint: apiTokenHint(value),
      name: input.name,
      scopes: input.scopes,
      expiresInDays: input.expiresInDays,
    });
    c.var.log.info('API token created', { tokenId: record.id, scopes: record.scopes });
    return c.json({ ...toApiToken(record), token: value }, 201);
  })
  .delete('/:id', async (c) => {
    const revoked = await revokeApiToken(c.var.deps.db, currentUser(c).id, c.req.param('id'));
    if (!revoked) throw notFound('API token');
    c.var.log.info('API token revoked', { tokenId: c.req.param('id') });
    return c.json({ success: true });
  });
