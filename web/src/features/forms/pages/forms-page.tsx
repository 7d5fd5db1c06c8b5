import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAddressList } from '../../../shared/hooks/use-address-list.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { PagedTable } from '../../../shared/ui/paged-table.tsx';
import { createForm, listForms } from '../api.ts';
import { FormBuilder } from '../components/form-builder.tsx';
import { bodyOf, emptyDraft, type Draft } from '../components/form-model.ts';
import { AddToggle } from '../../../shared/ui/buttons.tsx';

/** The project's signup forms with their counts; a new one is built here, then opened. */
export function FormsPage() {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const { paging } = useAddressList();
  const [adding, setAdding] = useState(false);
  const query = { cursor: paging.cursor, limit: 25 };
  const list = useProjectQuery(['forms', 'list', query], (client) => listForms(client, query), {
    placeholderData: keepPreviousData,
  });
  const create = async (draft: Draft) => {
    const form = await createForm(api, bodyOf(draft));
    void cache.invalidate(['forms']);
    navigate(`/forms/${form.id}`);
  };
  return (
    <>
      <PageHeader title="Forms">
        {canEdit && <AddToggle label="New form" open={adding} onToggle={() => setAdding((a) => !a)} />}
      </PageHeader>
      {adding && canEdit && <FormBuilder initial={emptyDraft()} submitLabel="Create form" onSubmit={create} />}
      <PagedTable
        state={list}
        paging={paging}
        noun="form"
        caption="Forms"
        rowKey={(f) => f.id}
        empty={<p>No forms yet. A form is a signup page Herald hosts, or a snippet to embed in your site.</p>}
        columns={[
          { label: 'Name', render: (f) => <Link to={`/forms/${f.id}`}>{f.name}</Link> },
          { label: 'Submissions', render: (f) => f.submissions.toLocaleString() },
          { label: 'Confirmed', render: (f) => (f.doubleOptIn ? f.confirmed.toLocaleString() : '—') },
          { label: 'Spam', render: (f) => f.spam.toLocaleString() },
          { label: 'Created', render: (f) => formatDateTime(f.createdAt) },
        ]}
      />
    </>
  );
}
