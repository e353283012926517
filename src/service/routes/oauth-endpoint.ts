/**
 * What every OAuth endpoint of the service shares (token, introspection, revocation, userinfo):
 * form bodies, every other content type handed to the handler (which refuses it in the OAuth
 * error shape rather than with fastify's 415), and answers that no cache may keep
 * (`Cache-Control: no-store`, `Pragma: no-cache`, RFC 6749 §5.1).
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';

/** Sets up the encapsulated plugin `app` as an OAuth endpoint (see the module comment). */
export async function asOAuthEndpoint(app: FastifyInstance): Promise<void> {
  await app.register(formbody);
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    reply.header('Pragma', 'no-cache');
  });
}
