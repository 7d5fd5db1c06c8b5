import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI 3.1 from the same zod schemas that validate requests: /openapi.json and /docs. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: '1.0.0',
        description: 'Transactional email, event tracking, contacts, campaigns and more. Errors use the `Error` envelope.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Project key: sk_… (secret) or pk_… (public, /v1/track only)' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        },
      },
    },
    transform: (input) => {
      const result = jsonSchemaTransform(input);
      const auth = (input.route.config as { auth?: string } | undefined)?.auth;
      const security = auth === 'admin' ? [{ adminToken: [] }] : auth === 'secret' || auth === 'public' ? [{ apiKey: [] }] : [];
      return { ...result, schema: { ...result.schema, security } };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
