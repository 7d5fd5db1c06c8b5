import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { settingsSchema, updateSettingsBody } from './settings.schemas.ts';
import { getSettingsView, updateProjectSettings } from './settings.service.ts';

/** The project's settings: its name, time zone, tracking mode, double opt-in, reputation thresholds, default sender. */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Settings'];

    app.get(
      '/settings',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "Get the project's settings",
          operationId: 'getSettings',
          response: { 200: envelope(settingsSchema), ...errors() },
        },
      },
      async (request) => ok(await getSettingsView({ db: ctx.db, projectId: projectOf(request) })),
    );

    app.patch(
      '/settings',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: "Change the project's settings",
          operationId: 'updateSettings',
          description: 'Changes the settings the body names; the rest keep their values.',
          body: updateSettingsBody,
          response: { 200: envelope(settingsSchema), ...errors() },
        },
      },
      async (request) =>
        ok(
          await updateProjectSettings({
            ctx,
            db: ctx.db,
            projectId: projectOf(request),
            change: request.body,
            callerRole: request.auth?.member?.role ?? null,
          }),
        ),
    );
  };
}
