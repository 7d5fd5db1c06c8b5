import { keepPreviousData } from '@tanstack/react-query';
import type { Data } from '../../../shared/api/operations.ts';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTimeSeconds, formatFullTimestamp } from '../../../shared/format.ts';
import { useAddressList, useAddressText } from '../../../shared/hooks/use-address-list.ts';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { endOfLocalDay } from '../../settings/key-expiry.ts';
import { listAuditLog } from '../api.ts';

type Entry = Data<'/audit-log'>['items'][number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// `from` and `to` are days (YYYY-MM-DD) of the browser's time zone, both included.
const FILTERS = { actor: null, action: null, resourceType: null, from: null, to: null } as const;

/** The kinds of resource the log names, offered as suggestions (any other can be typed). */
const RESOURCE_TYPES = [
  'campaign',
  'contact',
  'domain',
  'invite',
  'key',
  'member',
  'project',
  'segment',
  'settings',
  'suppression',
  'template',
  'topic',
  'user',
  'webhook',
  'workflow',
];

const ACTOR_TYPES: Record<Entry['actor']['type'], string> = {
  user: 'person',
  key: 'API key',
  admin: 'admin token',
  system: 'Herald',
};

/** A value before or after a change, as it reads in one line: text as is, anything else as JSON, nothing as a dash. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An entry's details, folded: each changed field's value before and after, and where the change came from. */
function EntryDetails({ entry }: { entry: Entry }) {
  const changes = Object.entries(entry.changes ?? {});
  const summary = changes.length === 0 ? 'Details' : `${changes.length} change${changes.length === 1 ? '' : 's'}`;
  return (
    <details className="audit-details">
      <summary>{summary}</summary>
      {changes.length > 0 && (
        <ul className="audit-changes" aria-label={`Changes of ${entry.action}`}>
          {changes.map(([field, [before, after]]) => (
            <li key={field}>
              <code className="field-name">{field}</code> <span className="visually-hidden">from </span>
              <del>{shown(before)}</del>
              <span aria-hidden="true"> → </span>
              <span className="visually-hidden"> to </span>
              <ins>{shown(after)}</ins>
            </li>
          ))}
        </ul>
      )}
      <dl className="details">
        {entry.resourceId && (
          <>
            <dt>Resource id</dt>
            <dd>
              <code>{entry.resourceId}</code>
            </dd>
          </>
        )}
        <dt>Address</dt>
        <dd>{entry.ip ?? '—'}</dd>
        <dt>Browser or client</dt>
        <dd>{entry.userAgent ?? '—'}</dd>
        <dt>Request id</dt>
        <dd>
          <code>{entry.requestId ?? '—'}</code>
        </dd>
      </dl>
    </details>
  );
}

/**
 * Who changed what in the project, newest first: filtered by actor, action, resource type and days; each entry
 * unfolds to its changes.
 */
export function AuditLogPage() {
  const { filters, setFilter, paging } = useAddressList(FILTERS);
  const typed = (name: 'actor' | 'action' | 'resourceType') => (value: string, options: { replace: boolean }) =>
    setFilter(name, value, options);
  const [actor, setActor] = useAddressText(filters.actor, typed('actor'));
  const [action, setAction] = useAddressText(filters.action, typed('action'));
  const [resourceType, setResourceType] = useAddressText(filters.resourceType, typed('resourceType'));
  const from = DAY.test(filters.from) ? new Date(`${filters.from}T00:00:00`).toISOString() : undefined;
  const to = DAY.test(filters.to) ? endOfLocalDay(filters.to) : undefined;
  const query = {
    actor: filters.actor || undefined,
    action: filters.action || undefined,
    resourceType: filters.resourceType || undefined,
    from,
    to,
    cursor: paging.cursor,
    limit: 25,
  };
  const list = useProjectQuery(['audit-log', 'list', query], (api) => listAuditLog(api, query), {
    placeholderData: keepPreviousData,
  });
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader title="Audit log" />
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="audit-actor">Actor</label>
          <input
            id="audit-actor"
            type="search"
            value={actor}
            placeholder="ann@example.com, key, system"
            onChange={(e) => setActor(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <input
            id="audit-action"
            type="search"
            value={action}
            placeholder="member.role_changed or member."
            onChange={(e) => setAction(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-resource">Resource type</label>
          <input
            id="audit-resource"
            type="search"
            list="audit-resource-types"
            value={resourceType}
            onChange={(e) => setResourceType(e.target.value)}
          />
          <datalist id="audit-resource-types">
            {RESOURCE_TYPES.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="audit-from">From</label>
          <input
            id="audit-from"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => setFilter('from', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-to">To</label>
          <input
            id="audit-to"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => setFilter('to', e.target.value)}
          />
        </div>
      </div>
      <div className="audit-log">
        <PagedTable
          state={list}
          paging={paging}
          noun="record"
          caption="Audit log"
          rowKey={(e) => e.id}
          empty={filtered ? <p>No entry matches these filters.</p> : <p>Nothing has changed in this project yet.</p>}
          columns={[
            {
              label: 'When',
              render: (e) => (
                <time dateTime={e.at} title={formatFullTimestamp(e.at)}>
                  {formatDateTimeSeconds(e.at)}
                </time>
              ),
            },
            {
              label: 'Actor',
              render: (e) => (
                <span>
                  {e.actor.label}
                  <span className="muted actor-type">{ACTOR_TYPES[e.actor.type]}</span>
                </span>
              ),
            },
            { label: 'Action', render: (e) => <code className="audit-action">{e.action}</code> },
            { label: 'Resource', render: (e) => e.resourceType },
            { label: 'Changes', render: (e) => <EntryDetails entry={e} /> },
          ]}
        />
      </div>
    </>
  );
}
