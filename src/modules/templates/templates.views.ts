// Templates and their versions as the API shows them.
import type { TemplateSnapshot } from '../../db/schema/templates.ts';
import { iso } from '../../lib/http.ts';
import type { TemplateRow, TemplateVersionRow } from './templates.repo.ts';
import { translationsView } from './templates.content.ts';

/** The layout choice as a request gives it: an id, null for none, absent for the project's default. */
const layoutChoice = (s: Pick<TemplateSnapshot, 'layoutId' | 'noLayout'>) =>
  s.noLayout ? { layoutId: null } : s.layoutId ? { layoutId: s.layoutId } : {};

/** The published snapshot a template row holds. */
export function publishedSnapshot(row: TemplateRow): TemplateSnapshot {
  return {
    subject: row.subject,
    format: row.format,
    body: row.body,
    content: row.content ?? null,
    html: row.html,
    fromEmail: row.fromEmail,
    fromName: row.fromName,
    replyTo: row.replyTo,
    layoutId: row.layoutId,
    noLayout: row.noLayout,
    translations: row.translations ?? null,
  };
}

/** A version's content fields. */
export function contentView(s: TemplateSnapshot) {
  return {
    subject: s.subject,
    format: s.format,
    body: s.body,
    content: s.content ?? null,
    from: s.fromEmail,
    fromName: s.fromName,
    replyTo: s.replyTo,
    ...layoutChoice(s),
    translations: translationsView(s.translations),
  };
}

export function toTemplateView(row: TemplateRow, draft: TemplateVersionRow | null) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    ...contentView(publishedSnapshot(row)),
    sampleData: row.sampleData ?? null,
    version: row.version,
    publishedAt: row.version === 0 ? null : iso(row.publishedAt),
    publishedBy: row.version === 0 ? null : (row.publishedBy ?? null),
    hasUnpublishedChanges: row.draftVersion !== null,
    draft: draft && {
      version: draft.version,
      ...contentView(draft.snapshot),
      savedAt: iso(draft.savedAt),
      savedBy: draft.savedBy ?? null,
    },
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A version in a list: its number, subject and who saved and published it. */
export function versionSummaryView(v: TemplateVersionRow) {
  return {
    version: v.version,
    subject: v.snapshot.subject,
    format: v.snapshot.format,
    draft: v.publishedAt === null,
    savedAt: iso(v.savedAt),
    savedBy: v.savedBy ?? null,
    publishedAt: v.publishedAt ? iso(v.publishedAt) : null,
    publishedBy: v.publishedBy ?? null,
  };
}

/** A version with its content. */
export const versionView = (v: TemplateVersionRow) => ({ ...versionSummaryView(v), ...contentView(v.snapshot) });
