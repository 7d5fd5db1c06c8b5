import { blocklistsJob } from './domains.blocklists.ts';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { DomainRecord, DomainStatus } from '../../db/schema/domains.ts';
import { violates } from '../../lib/db-errors.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import {
  decryptPrivateKey,
  defaultDkimSelector,
  encryptPrivateKey,
  generateDkimKeyPair,
} from '../../mail/dkim-keys.ts';
import { checkDomainRecords, normalizeDomain } from './domains.dns.ts';
import {
  plannedRecords,
  spfMechanisms,
  suggestedDmarc,
  suggestedSpf,
  type RecordPlan,
  withInboundRecord,
  withReportRecords,
  withTrackingRecord,
} from './domains.records.ts';
import { isLocalDomain, LOCAL_SENDER_DOMAIN, localDomainRefusal, localRecords } from './domains.local.ts';
import * as repo from './domains.repo.ts';
import { saveSendingLimits, type ProviderLimitsChange } from './domains.limits.ts';
import { trackingHostOf, verifiedTrackingHost, viewDomain, viewDomains } from './domains.view.ts';
import type { WarmupChange } from './domains.warmup.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';

export type { DomainRow } from './domains.repo.ts';
export type { DomainView } from './domains.view.ts';
export { verifiedTrackingHost } from './domains.view.ts';

/**
 * Records `domain.<verb>` in the audit log with what changed (name, status, receiving, tracking host, provider limits,
 * warm-up; never its keys), in the transaction of the change.
 */
function recordDomainChange(tx: Executor, verb: string, before: repo.DomainRow | null, after: repo.DomainRow) {
  const fields = (row: repo.DomainRow | null) =>
    row && {
      domain: row.domain,
      status: row.status,
      receiving: row.receiving,
      trackingHost: trackingHostOf(row),
      dmarcReports: row.reports,
      providerLimits: row.providerLimits,
      warmup: row.warmup,
    };
  return recordAudit(tx, {
    action: `domain.${verb}`,
    resourceType: 'domain',
    resourceId: after.id,
    projectId: after.projectId,
    changes: changesOf(fields(before), fields(after)!, before ? {} : { only: ['domain'] }),
  });
}

/** A tracking host as stored (lower-case, punycode); 422 unless it is a host name at or under the domain. */
function trackingHostFor(domain: string, input: string): string {
  if (input.trim().length > 253)
    throw validationError('trackingHost', 'A host name has at most 253 characters', 'invalid_tracking_host');
  const host = normalizeDomain(input);
  if (!host)
    throw validationError('trackingHost', 'Not a valid host name (e.g. links.example.com)', 'invalid_tracking_host');
  if (host !== domain && !host.endsWith(`.${domain}`)) {
    throw validationError(
      'trackingHost',
      `${host} is not ${domain} or a subdomain of it (e.g. links.${domain})`,
      'tracking_host_outside_domain',
    );
  }
  return host;
}

/** A new domain row: a fresh 2048-bit DKIM key (private half encrypted) and the records `recordsFor` plans for it. */
async function newDomainRow(
  ctx: AppContext,
  projectId: string,
  domain: string,
  recordsFor: (plan: RecordPlan) => DomainRecord[],
) {
  const keys = await generateDkimKeyPair();
  const selector = `${defaultDkimSelector()}${randomBytes(2).toString('hex')}`;
  const id = newId();
  const records = recordsFor({
    domain,
    selector,
    publicKeyBase64: keys.publicKeyBase64,
    spfValue: suggestedSpf(
      spfMechanisms({
        transport: ctx.config.mailTransport,
        include: ctx.config.spfInclude,
        smtpUrl: ctx.config.smtpUrl,
      }),
    ),
    dmarcValue: suggestedDmarc(ctx.config.dmarcRua),
    returnPathHost: ctx.config.returnPathHost,
  });
  return {
    id,
    projectId,
    domain,
    dkimSelector: selector,
    dkimPublicKey: keys.publicKeyBase64,
    dkimPrivateKey: encryptPrivateKey(keys.privateKeyPem, ctx.secrets.appSecret, id),
    records,
  };
}

/** Adds a sender domain: a fresh 2048-bit DKIM key (private half encrypted) and the records to publish. */
export async function createDomain(opts: { ctx: AppContext; projectId: string; domain: string }) {
  const domain = normalizeDomain(opts.domain);
  if (!domain) throw validationError('domain', 'Not a valid domain name (e.g. mail.example.com)', 'invalid_domain');
  if (isLocalDomain(domain)) {
    throw validationError(
      'domain',
      `${domain} cannot be verified through DNS: .localhost names never resolve outside this machine`,
      'local_domain',
    );
  }
  const { db } = opts.ctx;
  if (await repo.findDomainByName(db, opts.projectId, domain))
    throw new AppError('CONFLICT', `Domain ${domain} is already added to this project`);
  if (await repo.findVerifiedElsewhere(db, opts.projectId, domain)) {
    throw new AppError('CONFLICT', `Domain ${domain} is verified by another project`);
  }
  const fresh = await newDomainRow(opts.ctx, opts.projectId, domain, plannedRecords);
  try {
    const row = await db.transaction(async (tx) => {
      const created = await repo.insertDomain(tx, fresh);
      await recordDomainChange(tx, 'created', null, created);
      return created;
    });
    return await viewDomain(db, row);
  } catch (error) {
    if (violates(error, 'domains_project_domain_idx'))
      throw new AppError('CONFLICT', `Domain ${domain} is already added to this project`);
    throw error;
  }
}

export async function getDomain(opts: { db: Executor; projectId: string; id: string }) {
  return viewDomain(opts.db, await repo.requireDomain({ db: opts.db, projectId: opts.projectId, id: opts.id }));
}

export async function listDomains(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
  status?: DomainStatus | undefined;
}) {
  const { rows, total } = await repo.listDomains(opts.db, opts.projectId, opts);
  const views = new Map((await viewDomains(opts.db, rows.slice(0, opts.limit))).map((view) => [view.id, view]));
  return toPage(rows, opts.limit, total, (row) => views.get(row.id)!);
}

/**
 * Adds the local sender domain (herald.localhost) to a project, verified at once: its key signs outbox mail,
 * and no DNS is ever asked about it.
 */
export async function addLocalSenderDomain(opts: { ctx: AppContext; projectId: string; tx?: Executor }) {
  const row = await newDomainRow(opts.ctx, opts.projectId, LOCAL_SENDER_DOMAIN, (plan) => localRecords(plan));
  const db = opts.tx ?? opts.ctx.db;
  return viewDomain(
    db,
    await repo.insertDomain(db, { ...row, status: 'VERIFIED', verifiedAt: new Date(), lastCheckedAt: new Date() }),
  );
}

/**
 * What a new project starts with besides its keys: the local sender when this Herald sends to the outbox (a local
 * trial sends from any project at once), nothing otherwise (its mail would be refused by real servers).
 */
export function newProjectSetup(ctx: AppContext): ((tx: Executor, projectId: string) => Promise<unknown>) | undefined {
  if (ctx.config.mailTransport !== 'outbox') return undefined;
  return (tx, projectId) => addLocalSenderDomain({ ctx, projectId, tx });
}

/** `domain.verified` when a domain becomes VERIFIED; `domain.failed` when a verified one lost a required record. */
async function emitDomainChange(tx: Executor, before: repo.DomainRow, after: repo.DomainRow): Promise<void> {
  const type =
    after.status === 'VERIFIED' && before.status !== 'VERIFIED'
      ? 'domain.verified'
      : before.status === 'VERIFIED' && after.status === 'TEMPORARY_FAILURE'
        ? 'domain.failed'
        : null;
  if (!type) return;
  const failing = after.records
    .filter((r) => r.required && r.status !== 'VERIFIED')
    .map((r) => ({ type: r.type, name: r.name, reason: r.reason ?? null }));
  await emitWebhookEvents(tx, [
    {
      projectId: after.projectId,
      type,
      data: {
        domainId: after.id,
        domain: after.domain,
        status: after.status,
        ...(type === 'domain.failed' ? { records: failing } : {}),
      },
    },
  ]);
}

/**
 * Checks a domain's DNS now and stores the outcome; a verification another project won first → 409. `audited`: a
 * check asked for through the API (`domain.verified` in the audit log), not the periodic one.
 */
export async function verifyDomainNow(opts: { ctx: AppContext; row: repo.DomainRow; audited?: boolean }) {
  // A .localhost domain has nothing to look up: it stays as it is (checked now).
  const outcome = isLocalDomain(opts.row.domain)
    ? { records: opts.row.records, status: opts.row.status }
    : await checkDomainRecords({
        dns: opts.ctx.dnsFresh,
        records: opts.row.records,
        status: opts.row.status,
        createdAt: opts.row.createdAt,
      });
  try {
    return await opts.ctx.db.transaction(async (tx) => {
      const saved = await repo.saveCheck(tx, opts.row.id, outcome);
      if (saved) await emitDomainChange(tx, opts.row, saved);
      // Mail held while the sender domain was not verified goes out now.
      if (saved?.status === 'VERIFIED' && opts.row.status !== 'VERIFIED') {
        await opts.ctx.holds.release({ db: tx, projectId: saved.projectId, cause: 'DOMAIN_NOT_VERIFIED' });
        // A newly verified domain is looked up in the blocklists at once, not at the next hour.
        await opts.ctx.queue.enqueue(blocklistsJob, { domainId: saved.id }, { tx });
      }
      if (saved && verifiedTrackingHost(saved) !== verifiedTrackingHost(opts.row)) await repo.announceDomainChange(tx);
      if (saved && opts.audited) await recordDomainChange(tx, 'verified', opts.row, saved);
      return saved;
    });
  } catch (error) {
    if (!violates(error, 'domains_verified_idx')) throw error;
    await repo.saveCheck(opts.ctx.db, opts.row.id, {
      ...outcome,
      status: opts.row.status === 'VERIFIED' ? 'PENDING' : opts.row.status,
    });
    throw new AppError('CONFLICT', `Domain ${opts.row.domain} is verified by another project`);
  }
}

export async function verifyDomain(opts: { ctx: AppContext; projectId: string; id: string }) {
  const row = await repo.requireDomain({ db: opts.ctx.db, projectId: opts.projectId, id: opts.id });
  const saved = await verifyDomainNow({ ctx: opts.ctx, row, audited: true });
  if (!saved) throw notFound('Domain');
  return viewDomain(opts.ctx.db, saved);
}

/**
 * Refuses to turn receiving on where no mail could arrive: a .localhost name (no MX can point at it), or a Herald
 * without its inbound listener (INBOUND_SMTP_PORT unset), which would take nothing the MX record sends.
 */
function receivingRefusal(ctx: AppContext, domain: string): void {
  if (isLocalDomain(domain)) {
    throw new AppError('CONFLICT', `${domain} cannot receive mail: .localhost names have no MX record`, {
      suggestion: 'Turn receiving on for a domain of your own.',
    });
  }
  if (ctx.config.inbound.port === undefined) {
    throw new AppError('CONFLICT', `${domain} cannot receive mail: this Herald runs no inbound mail listener`, {
      suggestion:
        'Set INBOUND_SMTP_PORT (25 to take mail from the internet) on the server and restart it, then turn ' +
        'receiving on; the MX record it needs is shown with the records.',
    });
  }
}

/**
 * PATCH /domains/{id}: sets or removes the custom tracking host (its CNAME record), turns receiving on (a
 * VERIFIED domain only, else 409; adds the MX record) or off (removes it), turns reports on (the report records) or
 * off, and changes the provider limits and the
 * warm-up (see changedWarmup). The receiving guard is in the update itself, so a domain that lapses meanwhile is not
 * turned on.
 */
export async function updateDomain(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  receiving?: boolean | undefined;
  dmarcReports?: boolean | undefined;
  trackingHost?: string | null | undefined;
  providerLimits?: ProviderLimitsChange | undefined;
  warmup?: WarmupChange | undefined;
}) {
  const before = await repo.requireDomain({ db: opts.ctx.db, projectId: opts.projectId, id: opts.id });
  const { trackingHost } = opts;
  const host = typeof trackingHost === 'string' ? trackingHostFor(before.domain, trackingHost) : trackingHost;
  // Both changes or neither: a 409 on receiving leaves the tracking host as it was.
  const row = await opts.ctx.db.transaction(async (tx) => {
    let row = before;
    if (host !== undefined) {
      const records = withTrackingRecord(row.records, host, new URL(opts.ctx.config.publicUrl).hostname);
      const saved = await repo.saveRecords(tx, row.id, records);
      if (saved && verifiedTrackingHost(saved) !== verifiedTrackingHost(row)) await repo.announceDomainChange(tx);
      row = saved ?? row;
    }
    if (opts.receiving === true && !row.receiving) receivingRefusal(opts.ctx, row.domain);
    if (opts.receiving !== undefined && opts.receiving !== row.receiving) {
      const records = withInboundRecord(row.records, row.domain, opts.ctx.config.inbound.mxHost, opts.receiving);
      const saved = await repo.saveReceiving(tx, row.id, { receiving: opts.receiving, records });
      if (!saved) {
        throw new AppError(
          'CONFLICT',
          `Domain ${row.domain} is ${row.status}: only a verified domain can receive mail`,
          {
            suggestion: 'Publish its DNS records and verify it with POST /domains/{id}/verify first.',
          },
        );
      }
      row = saved;
    }
    if (opts.dmarcReports !== undefined && opts.dmarcReports !== row.reports) {
      // One token per domain, unguessable, kept when reports are turned off: addresses published before stay valid.
      const token = row.reportToken ?? randomBytes(16).toString('hex');
      const records = withReportRecords(row.records, {
        domain: row.domain,
        mxHost: opts.ctx.config.inbound.mxHost,
        token,
        on: opts.dmarcReports,
        configuredRua: opts.ctx.config.dmarcRua,
      });
      row = (await repo.saveReports(tx, row.id, { reports: opts.dmarcReports, reportToken: token, records })) ?? row;
    }
    if (opts.providerLimits !== undefined || opts.warmup !== undefined) {
      row = await saveSendingLimits(tx, row.id, { providerLimits: opts.providerLimits, warmup: opts.warmup });
    }
    await recordDomainChange(tx, 'updated', before, row);
    return row;
  });
  return viewDomain(opts.ctx.db, row);
}

/** The receiving, verified domains among `names` (any project): who gets mail sent to them. */
export async function findReceivingDomains(opts: {
  db: Executor;
  names: string[];
}): Promise<{ id: string; projectId: string; domain: string }[]> {
  const rows = await repo.findReceivingDomains(opts.db, opts.names);
  return rows.map((row) => ({ id: row.id, projectId: row.projectId, domain: row.domain }));
}

export async function deleteDomain(opts: { db: Executor; projectId: string; id: string }) {
  const deleted =
    isId(opts.id) &&
    (await opts.db.transaction(async (tx) => {
      const row = await repo.deleteDomain(tx, opts.projectId, opts.id);
      if (row) {
        await recordAudit(tx, {
          action: 'domain.deleted',
          resourceType: 'domain',
          resourceId: opts.id,
          projectId: opts.projectId,
          changes: { domain: [row.domain, null] },
        });
      }
      return row !== null;
    }));
  if (!deleted) throw notFound('Domain');
  return { id: opts.id, deleted: true as const };
}

/**
 * The domain part of an address and each parent domain: a.b.example.com → [a.b.example.com, b.example.com,
 * example.com].
 */
export function domainCandidates(address: string): string[] {
  const at = address.lastIndexOf('@');
  const domain = normalizeDomain(at >= 0 ? address.slice(at + 1) : address);
  if (!domain) return [];
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/** The field error code of a sender outside the calling key's domains (the Resend routes answer it as Resend does). */
export const SENDER_DOMAIN_NOT_ALLOWED = 'sender_domain_not_allowed';

const ADD_YOUR_DOMAIN = 'Add the domain with POST /domains, publish its DNS records, then POST /domains/{id}/verify.';

/**
 * The verified domain that allows this sender address; 403 DOMAIN_NOT_VERIFIED when none does, and for a
 * .localhost domain unless the transport is the outbox (no real server would take its mail); 403 FORBIDDEN when
 * the caller's key is restricted to `domainIds` that do not include it.
 */
export async function requireSenderDomain(opts: {
  ctx: AppContext;
  projectId: string;
  from: string;
  domainIds?: string[] | null | undefined;
}): Promise<repo.DomainRow> {
  const row = await repo.findVerifiedDomain(opts.ctx.db, opts.projectId, domainCandidates(opts.from));
  if (!row) {
    throw new AppError('DOMAIN_NOT_VERIFIED', `The sender domain of ${opts.from} is not verified in this project`, {
      suggestion: ADD_YOUR_DOMAIN,
    });
  }
  const refusal = localDomainRefusal(row.domain, opts.ctx.config.mailTransport);
  if (refusal) throw new AppError('DOMAIN_NOT_VERIFIED', refusal, { suggestion: ADD_YOUR_DOMAIN });
  // A key restricted to some sender domains (domainIds) sends from those only.
  if (opts.domainIds && !opts.domainIds.includes(row.id)) {
    const message = `This API key may not send from ${row.domain}: it is restricted to other sender domains`;
    throw new AppError('FORBIDDEN', message, {
      errors: [{ field: 'from', message, code: SENDER_DOMAIN_NOT_ALLOWED }],
      suggestion:
        'Send from a domain the key allows (GET /api-keys shows its domainIds), or use a ' +
        'key without a domain restriction.',
    });
  }
  return row;
}

/** The project's domain (any status) whose key signs mail from this address: the most specific that covers it. */
export async function findSigningDomain(opts: {
  db: Executor;
  projectId: string;
  from: string;
}): Promise<repo.DomainRow | null> {
  const [row] = await repo.findDomainsFor(opts.db, opts.projectId, domainCandidates(opts.from));
  return row ?? null;
}

/**
 * The instance's own mail (invites, password resets) signs with the verified domain of any project that covers its
 * sender: the domain's name, selector and decrypted key, or null when no project has verified one.
 */
export async function systemSigningKey(opts: {
  ctx: AppContext;
  from: string;
}): Promise<{ domainName: string; keySelector: string; privateKey: string } | null> {
  const [row] = await repo.findVerifiedDomainsNamed(opts.ctx.db, domainCandidates(opts.from));
  if (!row) return null;
  return {
    domainName: row.domain,
    keySelector: row.dkimSelector,
    privateKey: decryptPrivateKey(row.dkimPrivateKey, opts.ctx.secrets.appSecret, row.id),
  };
}
