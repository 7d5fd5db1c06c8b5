import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Contact, ContactImport as Import } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList, useAddressText } from '../../../shared/hooks/use-address-list.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { AddToggle, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { createContact, downloadContactsCsv, listContacts } from '../api.ts';
import { ContactBulk } from '../components/contact-bulk.tsx';
import { ContactImport, countsOf } from '../components/contact-import.tsx';

// `subscribed`: true, false (not subscribed, either way), or one of the two ways of not being subscribed.
const FILTERS = { search: null, subscribed: ['true', 'false', 'unsubscribed', 'never_subscribed'] } as const;

/** The list's query of the subscription filter: the flag, or the state the consent ledger tells. */
function subscriptionQuery(value: string | undefined) {
  if (value === 'unsubscribed' || value === 'never_subscribed') return { subscription: value } as const;
  return value === 'true' || value === 'false' ? { subscribed: value } : {};
}

function AddContact() {
  const api = useApi();
  const cache = useProjectCache();
  const [email, setEmail] = useState('');
  const [subscribed, setSubscribed] = useState(true);
  const add = useMutation({
    mutationFn: () => createContact(api, { email, subscribed }),
    onSuccess: (contact) => {
      setEmail('');
      cache.set(['contacts', contact.id], contact);
      void cache.invalidate(['contacts']);
      navigate(`/contacts/${contact.id}`);
    },
  });
  const submit = submitWith(() => add.mutate());
  return (
    <form className="panel inline-form" onSubmit={submit} aria-label="Add a contact">
      <div className="field">
        <label htmlFor="new-contact-email">Email</label>
        <input id="new-contact-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <label className="check">
        <input type="checkbox" checked={subscribed} onChange={(e) => setSubscribed(e.target.checked)} /> Subscribed
      </label>
      <button type="submit" disabled={add.isPending}>
        Add contact
      </button>
      {add.error !== null && <ErrorMessage error={add.error} />}
    </form>
  );
}

/**
 * The list's search and subscription filter as a segments filter (an empty `all` matches every contact); null for a
 * state only the consent ledger tells (unsubscribed, never subscribed), which the filter language cannot say.
 */
function listFilter(search: string | undefined, subscribed: string | undefined): Record<string, unknown> | null {
  if (subscribed === 'unsubscribed' || subscribed === 'never_subscribed') return null;
  const conditions: Record<string, unknown>[] = [];
  if (search) conditions.push({ field: 'email', operator: 'contains', value: search });
  if (subscribed === 'true' || subscribed === 'false')
    conditions.push({ field: 'subscribed', operator: 'equals', value: subscribed === 'true' });
  return { all: conditions };
}

/** Saves every contact as contacts.csv: fetched with the session's key (a bare link would carry none). */
async function exportCsv(fetchCsv: () => Promise<Blob>): Promise<void> {
  const url = URL.createObjectURL(await fetchCsv());
  const a = document.createElement('a');
  a.href = url;
  a.download = 'contacts.csv';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type Panel = 'none' | 'add' | 'import' | 'bulk';

/** A header button that opens one of the page's panels (and closes it again). */
function PanelButton({
  name,
  open,
  onToggle,
  children,
}: {
  name: Panel;
  open: Panel;
  onToggle: (panel: Panel) => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={open === name ? '' : 'secondary'}
      aria-expanded={open === name}
      onClick={() => onToggle(open === name ? 'none' : name)}
    >
      {children}
    </button>
  );
}

/** Contacts: search by email, filter by subscription, page through, add one, import or export a CSV, act in bulk. */
export function ContactsPage() {
  const api = useApi();
  // Viewers read the list; adding, importing, exporting and bulk actions are for editors.
  const canEdit = useCan('editor');
  const {
    filters: { search: query, subscribed },
    setFilter,
    paging,
  } = useAddressList(FILTERS);
  const [search, setSearch] = useAddressText(query, (value, options) => setFilter('search', value, options));
  const [panel, setPanel] = useState<Panel>('none');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const cache = useProjectCache();
  const exporting = useMutation({ mutationFn: () => exportCsv(() => downloadContactsCsv(api)) });
  const listQuery = { search: query, ...subscriptionQuery(subscribed), cursor: paging.cursor, limit: 20 };
  const list = useProjectQuery(['contacts', 'list', listQuery], (client) => listContacts(client, listQuery), {
    placeholderData: keepPreviousData,
  });
  const changed = () => void cache.invalidate(['contacts']);
  const [lastImport, setLastImport] = useState<Import | null>(null);
  // A clean import closes its panel and leaves its result on the page; one with rejected rows (or a failure) keeps
  // the panel open on them.
  const imported = (job: Import) => {
    changed();
    setLastImport(job);
    if (job.status === 'completed' && job.rejected === 0) setPanel('none');
  };
  return (
    <>
      <PageHeader title="Contacts">
        {canEdit && (
          <>
            <AddToggle
              label="Add contact"
              open={panel === 'add'}
              onToggle={() => setPanel(panel === 'add' ? 'none' : 'add')}
            />
            <PanelButton name="import" open={panel} onToggle={setPanel}>
              Import CSV
            </PanelButton>
            <button
              type="button"
              className="secondary"
              disabled={exporting.isPending}
              onClick={() => exporting.mutate()}
            >
              Export CSV
            </button>
            <PanelButton name="bulk" open={panel} onToggle={setPanel}>
              Bulk action{selected.size > 0 ? ` (${selected.size} selected)` : ''}
            </PanelButton>
          </>
        )}
      </PageHeader>
      {exporting.error !== null && <ErrorMessage error={exporting.error} />}
      {panel === 'add' && <AddContact />}
      {panel === 'import' && <ContactImport onDone={imported} />}
      {lastImport && panel !== 'import' && (
        <p role="status" className="notice" data-testid="import-result">
          Import {lastImport.status}: {countsOf(lastImport)}
        </p>
      )}
      {panel === 'bulk' && (
        <ContactBulk
          target={{
            selected: [...selected],
            filter: listFilter(query, subscribed),
            matching: list.data?.total ?? null,
            filtered: Boolean(query || subscribed),
          }}
          onDone={() => {
            setSelected(new Set());
            changed();
          }}
        />
      )}
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="contact-search">Search by email</label>
          <input id="contact-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="contact-subscribed">Subscription</label>
          <select id="contact-subscribed" value={subscribed} onChange={(e) => setFilter('subscribed', e.target.value)}>
            <option value="">All contacts</option>
            <option value="true">Subscribed</option>
            <option value="false">Not subscribed</option>
            <option value="unsubscribed">Unsubscribed (opted out)</option>
            <option value="never_subscribed">Never subscribed</option>
          </select>
        </div>
      </div>
      <PagedTable
        state={list}
        paging={paging}
        noun="contact"
        caption="Contacts"
        rowKey={(c) => c.id}
        empty={
          query || subscribed ? (
            <p>No contact matches these filters.</p>
          ) : (
            <p>
              No contacts yet.
              {canEdit && (
                <>
                  {' '}
                  Add one, import a CSV, or track an event with <code>POST /v1/track</code>.
                </>
              )}
            </p>
          )
        }
        columns={[
          ...(canEdit
            ? [
                {
                  label: 'Select',
                  render: (c: Contact) => (
                    <input
                      type="checkbox"
                      aria-label={`Select ${c.emailUnicode}`}
                      checked={selected.has(c.id)}
                      onChange={(e) => toggle(c.id, e.target.checked)}
                    />
                  ),
                },
              ]
            : []),
          { label: 'Email', render: (c) => <Link to={`/contacts/${c.id}`}>{c.emailUnicode}</Link> },
          {
            label: 'Subscription',
            // A recipient of transactional mail never subscribed: not an opt-out, and not shown as one.
            render: (c) => <StatusBadge status={c.subscription} />,
          },
          {
            label: 'Data',
            render: (c) => <span className="muted truncate">{Object.keys(c.data).join(', ') || '—'}</span>,
          },
          { label: 'Added', render: (c) => formatDateTime(c.createdAt) },
        ]}
      />
    </>
  );
}
