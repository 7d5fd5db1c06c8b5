// The per-project secret WEBHOOK steps are signed with: created on first use, stored encrypted with
// APP_SECRET, readable and rotatable at /workflows/signing-secret. After a rotation the previous secret
// signs too (a second signature) for a day, so receivers can switch without losing a message.
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { workflowSigningSecrets } from '../../db/schema/index.ts';
import { iso } from '../../lib/http.ts';
import { recordAudit, REDACTED } from '../audit/index.ts';
import { decryptPrivateKey, encryptPrivateKey } from '../../mail/dkim-keys.ts';
import { generateWebhookSecret } from '../../net/standard-webhooks.ts';

const OVERLAP_MS = 24 * 3600 * 1000;
// Bound into the ciphertext (associated data): a value copied onto another project's row does not decrypt.
const contextOf = (projectId: string) => `workflow-signing-secret:${projectId}`;

type SecretRow = typeof workflowSigningSecrets.$inferSelect;

export interface SigningSecretView {
  secret: string;
  createdAt: string;
  rotatedAt: string | null;
  /** Until when the previous secret still signs (a second signature), after a rotation. */
  previousValidUntil: string | null;
}

// Side effect: creates the project's secret when it has none (concurrent callers get the same one).
async function ensureSecretRow(ctx: AppContext, db: Executor, projectId: string): Promise<SecretRow> {
  const [existing] = await db
    .select()
    .from(workflowSigningSecrets)
    .where(eq(workflowSigningSecrets.projectId, projectId));
  if (existing) return existing;
  const secret = encryptPrivateKey(generateWebhookSecret(), ctx.secrets.appSecret, contextOf(projectId));
  await db.insert(workflowSigningSecrets).values({ projectId, secret }).onConflictDoNothing();
  const [row] = await db.select().from(workflowSigningSecrets).where(eq(workflowSigningSecrets.projectId, projectId));
  return row!;
}

function previousStillSigns(row: SecretRow, now = Date.now()): boolean {
  return row.previousSecret !== null && row.rotatedAt !== null && now - row.rotatedAt.getTime() < OVERLAP_MS;
}

function toView(ctx: AppContext, row: SecretRow): SigningSecretView {
  return {
    secret: decryptPrivateKey(row.secret, ctx.secrets.appSecret, contextOf(row.projectId)),
    createdAt: iso(row.createdAt),
    rotatedAt: iso(row.rotatedAt),
    previousValidUntil: previousStillSigns(row) ? iso(new Date(row.rotatedAt!.getTime() + OVERLAP_MS)) : null,
  };
}

/** GET /workflows/signing-secret: the project's secret (made on first use). */
export async function getSigningSecret(opts: { ctx: AppContext; projectId: string }): Promise<SigningSecretView> {
  return toView(opts.ctx, await ensureSecretRow(opts.ctx, opts.ctx.db, opts.projectId));
}

/** POST /workflows/signing-secret/rotate: a new secret; the old one keeps signing for a day. */
export async function rotateSigningSecret(opts: { ctx: AppContext; projectId: string }): Promise<SigningSecretView> {
  const { ctx, projectId } = opts;
  const secret = encryptPrivateKey(generateWebhookSecret(), ctx.secrets.appSecret, contextOf(projectId));
  const row = await ctx.db.transaction(async (tx) => {
    await ensureSecretRow(ctx, tx, projectId);
    const [rotated] = await tx
      .update(workflowSigningSecrets)
      .set({ previousSecret: sql`${workflowSigningSecrets.secret}`, secret, rotatedAt: sql`now()` })
      .where(eq(workflowSigningSecrets.projectId, projectId))
      .returning();
    // That it changed, never the secret.
    await recordAudit(tx, {
      action: 'workflow.signing_secret_rotated',
      resourceType: 'workflow_signing_secret',
      resourceId: projectId,
      projectId,
      changes: { secret: [REDACTED, REDACTED] },
    });
    return rotated!;
  });
  return toView(ctx, row);
}

/** The secrets a WEBHOOK step signs with now: the current one, and the previous one during the overlap. */
export async function signingSecretsOf(ctx: AppContext, projectId: string): Promise<string[]> {
  const row = await ensureSecretRow(ctx, ctx.db, projectId);
  const secrets = [decryptPrivateKey(row.secret, ctx.secrets.appSecret, contextOf(projectId))];
  if (previousStillSigns(row))
    secrets.push(decryptPrivateKey(row.previousSecret!, ctx.secrets.appSecret, contextOf(projectId)));
  return secrets;
}
