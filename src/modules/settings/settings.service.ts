import type { AppContext } from '../../context.types.ts';
import type { Db } from '../../db/client.ts';
import type { SunsetAction, TrackingMode } from '../../db/schema/settings.ts';
import { iso } from '../../lib/http.ts';
import { AppError } from '../../lib/errors.ts';
import { aRole, type Role } from '../../plugins/types.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { defaultLayoutId, setDefaultLayout } from '../layouts/index.ts';
import { getProject, updateProject } from '../projects/index.ts';
import { checkConfirmationTemplate } from './settings.checks.ts';
import { formatDefaultSender, type DefaultSender } from './settings.default-from.ts';
import * as repo from './settings.repo.ts';
import { toFrequencyCapView, toStoredFrequencyCap, type FrequencyCapView } from './settings.frequency-cap.ts';

export type { SunsetAction, TrackingMode } from '../../db/schema/settings.ts';
export type { DefaultSender } from './settings.default-from.ts';

/** What a project has chosen, with the defaults where it chose nothing. */
export interface ProjectSettings {
  timezone: string;
  tracking: TrackingMode;
  doubleOptIn: { templateId: string } | null;
  maxBounceRate: number;
  maxComplaintRate: number;
  requireTwoFactor: boolean;
  /** At most `max` marketing emails per contact in any `per` ("7d"); null: no cap. */
  frequencyCap: FrequencyCapView | null;
  /** Pre-send check codes that count as errors in this project. */
  checkErrors: string[];
  /** Days without a person's open or click (while marketing mail kept arriving) after which a contact is dormant. */
  dormantAfterDays: number;
  /** What the daily sweep does to dormant contacts. */
  sunset: { action: SunsetAction };
  /** The sender of a send or campaign that names none; null: those are refused. */
  defaultFrom: DefaultSender | null;
}

export interface SettingsView extends Omit<ProjectSettings, 'defaultFrom'> {
  name: string;
  /** The default sender as written: `Name <address>`, or the address alone. */
  defaultFrom: string | null;
  /** The layout of templates and campaigns that name none. */
  defaultLayoutId: string | null;
  updatedAt: string | null;
}

export const DEFAULT_SETTINGS: Readonly<ProjectSettings> = Object.freeze({
  timezone: 'UTC',
  tracking: 'MARKETING_ONLY',
  doubleOptIn: null,
  maxBounceRate: 0.08,
  maxComplaintRate: 0.003,
  requireTwoFactor: false,
  frequencyCap: null,
  checkErrors: [],
  dormantAfterDays: 180,
  sunset: { action: 'none' as const },
  defaultFrom: null,
});

function toSettings(row: repo.SettingsRow | null): ProjectSettings {
  if (!row) return { ...DEFAULT_SETTINGS, checkErrors: [], sunset: { ...DEFAULT_SETTINGS.sunset } };
  return {
    timezone: row.timezone,
    tracking: row.tracking,
    doubleOptIn: row.doubleOptInTemplateId ? { templateId: row.doubleOptInTemplateId } : null,
    maxBounceRate: row.maxBounceRate,
    maxComplaintRate: row.maxComplaintRate,
    requireTwoFactor: row.requireTwoFactor,
    frequencyCap: toFrequencyCapView(row.frequencyCap),
    checkErrors: row.checkErrors,
    dormantAfterDays: row.dormantAfterDays,
    sunset: { action: row.sunsetAction },
    defaultFrom: row.defaultFromEmail ? { email: row.defaultFromEmail, name: row.defaultFromName } : null,
  };
}

/** The settings other modules act on (tracking mode, time zone, thresholds, double opt-in). */
export async function getProjectSettings(opts: { db: Db; projectId: string }): Promise<ProjectSettings> {
  return toSettings(await repo.findSettings(opts.db, opts.projectId));
}

/** The settings as `GET /settings` shows them: the project's name besides what it chose. */
export async function getSettingsView(opts: { db: Db; projectId: string }): Promise<SettingsView> {
  const [project, row, layoutId] = await Promise.all([
    getProject({ db: opts.db, id: opts.projectId }),
    repo.findSettings(opts.db, opts.projectId),
    defaultLayoutId({ db: opts.db, projectId: opts.projectId }),
  ]);
  const settings = toSettings(row);
  return {
    name: project.name,
    ...settings,
    defaultFrom: formatDefaultSender(settings.defaultFrom),
    defaultLayoutId: layoutId,
    updatedAt: row ? iso(row.updatedAt) : null,
  };
}

export interface SettingsChange {
  name?: string | undefined;
  timezone?: string | undefined;
  tracking?: TrackingMode | undefined;
  doubleOptIn?: { templateId: string } | null | undefined;
  maxBounceRate?: number | undefined;
  maxComplaintRate?: number | undefined;
  requireTwoFactor?: boolean | undefined;
  frequencyCap?: FrequencyCapView | null | undefined;
  checkErrors?: string[] | undefined;
  defaultLayoutId?: string | null | undefined;
  dormantAfterDays?: number | undefined;
  sunset?: { action: SunsetAction } | undefined;
  defaultFrom?: DefaultSender | null | undefined;
}

/**
 * A 422 on `defaultFrom` unless its address may send for the project now: on a verified sender domain (the local
 * sender only while mail stays in the outbox), the rule a send's `from` obeys.
 */
async function checkDefaultSender(ctx: AppContext, projectId: string, sender: DefaultSender): Promise<void> {
  try {
    await requireSenderDomain({ ctx, projectId, from: sender.email });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'DOMAIN_NOT_VERIFIED') throw error;
    throw new AppError('VALIDATION_ERROR', error.message, {
      errors: [{ field: 'defaultFrom', message: error.message, code: 'domain_not_verified' }],
      suggestion: 'Add and verify the domain under Domains (POST /domains), or choose an address on a verified one.',
    });
  }
}

/**
 * Changes what `change` names (the rest stays); `doubleOptIn: null` turns double opt-in off. A confirmation
 * template is checked (422) in the same transaction, holding it against a change until the settings commit.
 */
export async function updateProjectSettings(opts: {
  ctx: AppContext;
  db: Db;
  projectId: string;
  change: SettingsChange;
  callerRole?: Role | null | undefined;
}): Promise<SettingsView> {
  const { name, doubleOptIn, defaultLayoutId: layoutId, sunset, defaultFrom, ...rest } = opts.change;
  // Requiring two-factor of people is for a signed-in owner: keys never act on people.
  if (rest.requireTwoFactor !== undefined && opts.callerRole !== 'owner') {
    throw new AppError(
      'FORBIDDEN',
      opts.callerRole
        ? `You are ${aRole(opts.callerRole)} of this project: only an owner changes requireTwoFactor`
        : 'Keys cannot change requireTwoFactor: a signed-in owner does',
    );
  }
  if (defaultFrom) await checkDefaultSender(opts.ctx, opts.projectId, defaultFrom);
  await opts.db.transaction(async (tx) => {
    const before = await repo.findSettings(tx, opts.projectId);
    const changes = changesOf({ ...toSettings(before) } as unknown as Record<string, unknown>, {
      ...rest,
      ...(doubleOptIn !== undefined ? { doubleOptIn } : {}),
      ...(sunset !== undefined ? { sunset } : {}),
      ...(defaultFrom !== undefined ? { defaultFrom } : {}),
    });
    await recordAudit(tx, {
      action: 'settings.updated',
      resourceType: 'settings',
      resourceId: opts.projectId,
      projectId: opts.projectId,
      changes: {
        ...changes,
        ...(name !== undefined ? { name: [null, name] } : {}),
        ...(layoutId !== undefined ? { defaultLayoutId: [null, layoutId] } : {}),
      },
    });
    if (layoutId !== undefined) await setDefaultLayout({ ctx: opts.ctx, db: tx, projectId: opts.projectId, layoutId });
    if (doubleOptIn)
      await checkConfirmationTemplate({ db: tx, projectId: opts.projectId, templateId: doubleOptIn.templateId });
    if (name !== undefined) await updateProject({ db: tx, id: opts.projectId, name });
    const doubleOptInTemplateId = doubleOptIn === undefined ? undefined : (doubleOptIn?.templateId ?? null);
    const { frequencyCap, ...others } = rest;
    await repo.upsertSettings(tx, opts.projectId, {
      ...others,
      doubleOptInTemplateId,
      sunsetAction: sunset?.action,
      ...(defaultFrom !== undefined
        ? { defaultFromEmail: defaultFrom?.email ?? null, defaultFromName: defaultFrom?.name ?? null }
        : {}),
      frequencyCap: frequencyCap === undefined ? undefined : toStoredFrequencyCap(frequencyCap),
    });
  });
  return getSettingsView({ db: opts.db, projectId: opts.projectId });
}
