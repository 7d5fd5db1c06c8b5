import { keepPreviousData } from '@tanstack/react-query';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList, useAddressText } from '../../../shared/hooks/use-address-list.ts';
import { Link } from '../../../shared/router.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { listInbound } from '../api.ts';

const FILTERS = { search: null } as const;

/** Mail received at the project's receiving domains, newest first, searchable by sender and subject. */
export function InboundPage() {
  const {
    filters: { search: query },
    setFilter,
    paging,
  } = useAddressList(FILTERS);
  const [search, setSearch] = useAddressText(query, (value, options) => setFilter('search', value, options));
  const listQuery = { search: query || undefined, cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['inbound', 'list', listQuery], (api) => listInbound(api, listQuery), {
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Inbound" />
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="inbound-search">Search sender or subject</label>
          <input id="inbound-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
      </div>
      <PagedTable
        state={list}
        paging={paging}
        noun="message"
        caption="Received messages"
        rowKey={(m) => m.id}
        empty={
          query ? (
            <p>No received message matches.</p>
          ) : (
            <p>No mail received yet. Turn on “Receive mail” for a verified domain on its page.</p>
          )
        }
        columns={[
          {
            label: 'From',
            render: (m) => (
              <Link to={`/inbound/${m.id}`}>{m.from.name ? `${m.from.name} <${m.from.email}>` : m.from.email}</Link>
            ),
          },
          { label: 'To', render: (m) => <span className="truncate">{m.recipients.join(', ')}</span> },
          { label: 'Subject', render: (m) => <span className="truncate">{m.subject || '(no subject)'}</span> },
          { label: 'Received', render: (m) => formatDateTime(m.receivedAt) },
        ]}
      />
    </>
  );
}
