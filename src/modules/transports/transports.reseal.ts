// `herald reseal` (and POST /admin/transports/reseal beside a running server): after APP_SECRET changed, with the old
// one as APP_SECRET_PREVIOUS, every transport secret is sealed again under the new APP_SECRET, so that the old one
// can then be dropped. One transaction: all of them or none.
import type { AppContext } from '../../context.types.ts';
import { REDACTED, recordAudit } from '../audit/index.ts';
import * as repo from './transports.repo.ts';
import { sealTransportSecret, unsealTransportSecret } from './transports.secrets.ts';
import { directoryConfigOf } from './transports.view.ts';

export interface ResealResult {
  /** Transports whose secret is now sealed under APP_SECRET. */
  resealed: number;
  /** Transports whose secret neither APP_SECRET nor APP_SECRET_PREVIOUS opens (left as they are). */
  unreadable: { id: string; projectId: string; name: string }[];
}

/** Seals every transport secret again under APP_SECRET, reading each with APP_SECRET or APP_SECRET_PREVIOUS. */
export async function resealTransportSecrets(opts: { ctx: AppContext }): Promise<ResealResult> {
  const { ctx } = opts;
  const keys = directoryConfigOf(ctx);
  return ctx.db.transaction(async (tx) => {
    const result: ResealResult = { resealed: 0, unreadable: [] };
    for (const row of await repo.lockSealedTransports(tx)) {
      let secret;
      try {
        secret = unsealTransportSecret(row.secret, keys);
      } catch {
        result.unreadable.push({ id: row.id, projectId: row.projectId, name: row.name });
        continue;
      }
      const sealed = sealTransportSecret(ctx.secrets.appSecret, secret);
      if (!sealed) continue;
      await repo.setSealedSecret(tx, row.id, sealed);
      await recordAudit(tx, {
        action: 'transport.resealed',
        resourceType: 'transport',
        resourceId: row.id,
        projectId: row.projectId,
        changes: { secret: [REDACTED, REDACTED] },
      });
      result.resealed += 1;
    }
    return result;
  });
}
