import { keepPreviousData } from '@tanstack/react-query';
import { useCan } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { allOf, type TemplateType } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList, useAddressText } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { StatusBadge, NewLink } from '../../../shared/ui/buttons.tsx';
import { ShortId } from '../../../shared/ui/id-field.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listTemplates } from '../api.ts';
import { FORMATS } from '../model/content.ts';

const TYPES = allOf<TemplateType>()(['TRANSACTIONAL', 'MARKETING']);
const FILTERS = { search: null, type: TYPES } as const;

export function TemplatesPage() {
  const canEdit = useCan('editor');
  const {
    filters: { search: query, type },
    setFilter,
    paging,
  } = useAddressList(FILTERS);
  const [search, setSearch] = useAddressText(query, (value, options) => setFilter('search', value, options));
  const listQuery = { search: query, type: type || undefined, cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['templates', 'list', listQuery], (api) => listTemplates(api, listQuery), {
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Templates">{canEdit && <NewLink to="/templates/new" label="New template" />}</PageHeader>
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="template-search">Search by name</label>
          <input id="template-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="template-type">Type</label>
          <select id="template-type" value={type} onChange={(e) => setFilter('type', e.target.value)}>
            <option value="">All types</option>
            <option value="TRANSACTIONAL">Transactional</option>
            <option value="MARKETING">Marketing</option>
          </select>
        </div>
      </div>
      <PagedTable
        state={list}
        paging={paging}
        noun="template"
        caption="Templates"
        rowKey={(t) => t.id}
        empty={
          query || type ? (
            <p>No template matches.</p>
          ) : (
            <p>
              No templates yet.
              {canEdit && (
                <>
                  {' '}
                  <Link to="/templates/new">Write the first one</Link>.
                </>
              )}
            </p>
          )
        }
        columns={[
          { label: 'Name', render: (t) => <Link to={`/templates/${t.id}`}>{t.name}</Link> },
          { label: 'ID', render: (t) => <ShortId noun="Template" id={t.id} /> },
          { label: 'Subject', render: (t) => <span className="truncate">{t.subject}</span> },
          { label: 'Type', render: (t) => <StatusBadge status={t.type} /> },
          { label: 'Format', render: (t) => FORMATS.find((f) => f.value === t.format)?.label ?? t.format },
          {
            label: 'Version',
            render: (t) => (
              <>
                {t.version > 0 ? `v${t.version}` : 'Not published'}
                {t.hasUnpublishedChanges && (
                  <>
                    {' '}
                    <span className="badge badge-wait">Draft</span>
                  </>
                )}
              </>
            ),
          },
          { label: 'Updated', render: (t) => formatDateTime(t.updatedAt) },
        ]}
      />
    </>
  );
}
