import { keepPreviousData } from '@tanstack/react-query';
import type { Data } from '../../../shared/api/operations.ts';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTimeSeconds, formatFullTimestamp } from '../../../shared/format.ts';
import { useAddressList, useAddressText } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listOwnKeys } from '../../settings/api.ts';
import { endOfLocalDay } from '../../settings/key-expiry.ts';
import { listLogs } from '../api.ts';

type Entry = Data<'/logs'>['items'][number];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
// `from` and `to` are days (YYYY-MM-DD) of the browser's time zone, both included; `key` a key's id.
const FILTERS = { method: METHODS, status: STATUS_CLASSES, path: null, key: null, from: null, to: null } as const;

/** A status as a badge: green for success, amber for the caller's errors, red for the server's. */
/** A filter choosing one of a few values, or any. */
function ChoiceFilter(props: {
  id: string;
  label: string;
  any: string;
  options: readonly string[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.any}</option>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

export function StatusCode({ status }: { status: number }) {
  const tone = status >= 500 ? 'bad' : status >= 400 ? 'wait' : 'good';
  return <span className={`badge badge-${tone}`}>{status}</span>;
}

/** The keys of the project, for the key filter (an admin's page: the key list is theirs to read). */
function KeyFilter({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const keys = useProjectQuery(['keys', 'list'], listOwnKeys);
  return (
    <div className="field">
      <label htmlFor="log-key">Key</label>
      <select id="log-key" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any caller</option>
        {(keys.data?.items ?? []).map((k) => (
          <option key={k.id} value={k.id}>
            {k.name} ({k.prefix}…)
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Every API request of the project, newest first: filtered by method, status class, path prefix, key and days; a row
 * opens the request with both bodies.
 */
export function RequestLogPage() {
  const { filters, setFilter, paging } = useAddressList(FILTERS);
  const [path, setPath] = useAddressText(filters.path, (value, options) => setFilter('path', value, options));
  const query = {
    method: filters.method || undefined,
    status: filters.status || undefined,
    path: filters.path.startsWith('/') ? filters.path : undefined,
    keyId: filters.key || undefined,
    from: DAY.test(filters.from) ? new Date(`${filters.from}T00:00:00`).toISOString() : undefined,
    to: DAY.test(filters.to) ? endOfLocalDay(filters.to) : undefined,
    cursor: paging.cursor,
    limit: 25,
  };
  const list = useProjectQuery(['logs', 'list', query], (api) => listLogs(api, query), {
    placeholderData: keepPreviousData,
  });
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader title="Request log" />
      <p className="hint">
        Every API request of this project for the last days, with its bodies; passwords, keys, secrets and attachment
        contents are never kept.
      </p>
      <div className="filters" role="search">
        <ChoiceFilter
          id="log-method"
          label="Method"
          any="Any method"
          options={METHODS}
          value={filters.method}
          onChange={(v) => setFilter('method', v)}
        />
        <ChoiceFilter
          id="log-status"
          label="Status"
          any="Any status"
          options={STATUS_CLASSES}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
        <div className="field">
          <label htmlFor="log-path">Path</label>
          <input
            id="log-path"
            type="search"
            value={path}
            placeholder="/v1/send or /contacts"
            onChange={(e) => setPath(e.target.value)}
          />
        </div>
        <KeyFilter value={filters.key} onChange={(id) => setFilter('key', id)} />
        <div className="field">
          <label htmlFor="log-from">From</label>
          <input
            id="log-from"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => setFilter('from', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="log-to">To</label>
          <input
            id="log-to"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => setFilter('to', e.target.value)}
          />
        </div>
      </div>
      <PagedTable
        state={list}
        paging={paging}
        noun="request"
        caption="Request log"
        rowKey={(e: Entry) => e.id}
        empty={filtered ? <p>No request matches these filters.</p> : <p>No API request in this project yet.</p>}
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
            label: 'Request',
            render: (e) => (
              <Link to={`/logs/${e.id}`}>
                <code>
                  {e.method} {e.path}
                </code>
              </Link>
            ),
          },
          { label: 'Status', render: (e) => <StatusCode status={e.status} /> },
          { label: 'Duration', render: (e) => `${e.durationMs.toFixed(1)} ms`, numeric: true },
          { label: 'Caller', render: (e) => e.actor.label },
        ]}
      />
    </>
  );
}
