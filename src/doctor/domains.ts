// Each verified sender domain, checked by the domains module's own verification (the one behind "Verify" and the
// periodic check), resolving through DNS_SERVERS; run in a transaction that is rolled back, so doctor changes
// nothing (no status, no webhook, no audit entry). Its DKIM key must also decrypt with this APP_SECRET.
import { TransactionRollbackError } from 'drizzle-orm';
import type { AppContext } from '../context.types.ts';
import * as domains from '../modules/domains/index.ts';
import * as projects from '../modules/projects/index.ts';
import { describeError, fail, ok, runCheck, warn, within, type CheckRow } from './rows.ts';

type Domain = domains.DomainView;
type DomainRecord = Domain['records'][number];

const PAGE = 100;

/** Every domain that is verified, or was and lost a record since, in every project (the local sender domain apart). */
async function domainsToCheck(ctx: AppContext): Promise<(Domain & { projectId: string })[]> {
  const found: (Domain & { projectId: string })[] = [];
  let projectCursor: string | undefined;
  do {
    const page = await projects.listProjects({ db: ctx.db, limit: PAGE, cursor: projectCursor });
    for (const project of page.items) {
      let cursor: string | undefined;
      do {
        const list = await domains.listDomains({ db: ctx.db, projectId: project.id, limit: PAGE, cursor });
        for (const domain of list.items) {
          if (domain.domain === domains.LOCAL_SENDER_DOMAIN) continue;
          if (domain.status === 'VERIFIED' || domain.status === 'TEMPORARY_FAILURE')
            found.push({ ...domain, projectId: project.id });
        }
        cursor = list.nextCursor ?? undefined;
      } while (cursor);
    }
    projectCursor = page.nextCursor ?? undefined;
  } while (projectCursor);
  return found;
}

interface DryRun {
  domain: Domain;
  /** Why the domain's DKIM private key does not decrypt with this APP_SECRET; null when it does, or was not tried. */
  keyProblem: string | null;
  keyChecked: boolean;
}

/** verifyDomain and the signing key's decryption, in a transaction rolled back afterwards. */
async function verifyWithoutSaving(ctx: AppContext, projectId: string, id: string): Promise<DryRun> {
  let run: DryRun | null = null;
  try {
    await ctx.db.transaction(async (tx) => {
      const scoped: AppContext = { ...ctx, db: tx };
      const domain = await domains.verifyDomain({ ctx: scoped, projectId, id });
      let keyProblem: string | null = null;
      const keyChecked = domain.status === 'VERIFIED' && ctx.secrets.appSecret !== '';
      if (keyChecked) {
        try {
          await domains.systemSigningKey({ ctx: scoped, from: `doctor@${domain.domain}` });
        } catch (error) {
          keyProblem = describeError(error);
        }
      }
      run = { domain, keyProblem, keyChecked };
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
  return run!;
}

// Every reason the verification gives names the record it looked up.
const recordLabel = (record: DomainRecord) => record.purpose;
const publish = (record: DomainRecord) =>
  `Publish ${record.type} ${record.name} "${record.value}"${record.required ? '' : ' (optional)'}`;

/** A domain's row from what the verification found; `stored` is the status saved before it. */
function domainRow(run: DryRun, stored: Domain['status'], dnsServers: readonly string[]): CheckRow {
  const { domain } = run;
  const name = `domain ${domain.domain}`;
  const failed = domain.records.filter((record) => record.status === 'FAILED');
  const required = failed.filter((record) => record.required);
  if (required.length > 0 || domain.status !== 'VERIFIED') {
    const missing = required.length > 0 ? required : failed;
    const detail = missing.map((record) => `${recordLabel(record)}: ${record.reason ?? 'not found'}`).join('; ');
    return fail(name, detail || `status ${domain.status}`, missing.map(publish).join('\n') || 'Verify it again.');
  }
  if (run.keyProblem) {
    return fail(
      name,
      `its DKIM private key does not decrypt with this APP_SECRET (${run.keyProblem})`,
      'Use the APP_SECRET the domain was added with, the same in every Herald process.',
    );
  }
  const unanswered = domain.records.filter((record) => record.reason && record.status !== 'FAILED');
  if (unanswered.length > 0) {
    const through = dnsServers.length > 0 ? dnsServers.join(', ') : 'the system resolvers';
    return warn(
      name,
      unanswered.map((record) => `${recordLabel(record)}: ${record.reason}`).join('; '),
      `Check that ${through} answer${dnsServers.length === 1 ? 's' : ''} (DNS_SERVERS), and run doctor again.`,
    );
  }
  if (failed.length > 0) {
    const detail = failed.map((record) => `${recordLabel(record)}: ${record.reason ?? 'not found'}`).join('; ');
    return warn(name, detail, failed.map(publish).join('\n'));
  }
  if (stored !== 'VERIFIED') {
    return warn(
      name,
      `its records are found again, but it is still saved as ${stored}, so its mail waits for the next periodic check`,
      'Verify it now: in the dashboard (Domains), or POST /domains/{id}/verify.',
    );
  }
  const found = domain.records.filter((record) => record.status === 'VERIFIED').map((record) => record.purpose);
  return ok(name, `${found.join(', ')} found${run.keyChecked ? '; its DKIM key decrypts with APP_SECRET' : ''}`);
}

/** A row per verified sender domain (or one saying there is none) of a running context, each within its limit. */
export async function domainRowsOf(ctx: AppContext, limitMs: number): Promise<CheckRow[]> {
  try {
    const list = await within(limitMs, domainsToCheck(ctx));
    if (list.length === 0) return [ok('domains', 'no verified sender domain to check')];
    const rows: CheckRow[] = [];
    for (const domain of list) {
      const fix = 'Check DNS_SERVERS, and that this machine reaches them.';
      rows.push(
        ...(await runCheck(`domain ${domain.domain}`, limitMs, fix, async () =>
          domainRow(await verifyWithoutSaving(ctx, domain.projectId, domain.id), domain.status, ctx.config.dnsServers),
        )),
      );
    }
    return rows;
  } catch (error) {
    return [fail('domains', `not checked: ${describeError(error)}`, "Look at the database server's log.")];
  }
}
