// The relay module: the SMTP submission relay, for apps that send mail only over SMTP.
import type { ModuleManifest } from '../../context.types.ts';
import { startSubmissionRelay } from './relay.smtp.ts';

export const relayModule: ModuleManifest = {
  name: 'relay',
  // One relay per background process that has the port configured; any number share one PostgreSQL.
  servers: [
    async (ctx) =>
      ctx.config.submissionSmtp.port === undefined ? null : startSubmissionRelay(ctx, ctx.config.submissionSmtp.port),
  ],
};
