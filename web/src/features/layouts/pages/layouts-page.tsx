import { useMutation } from '@tanstack/react-query';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { LAYOUTS, listLayouts, setDefaultLayout } from '../api.ts';
import { NewLink } from '../../../shared/ui/buttons.tsx';

/** The project's layouts: the frames its templates and campaigns are put in, one of them the default. */
export function LayoutsPage() {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const list = useProjectQuery([...LAYOUTS, 'list'], listLayouts);
  const makeDefault = useMutation({
    mutationFn: (id: string | null) => setDefaultLayout(api, id),
    // The templates and campaigns using the default were compiled again with it.
    onSuccess: () => {
      void cache.invalidate(['templates']);
      void cache.invalidate(['campaigns']);
      void cache.invalidate(['settings']);
    },
  });
  return (
    <>
      <PageHeader title="Layouts">{canEdit && <NewLink to="/layouts/new" label="New layout" />}</PageHeader>
      <p className="hint page-intro">
        A layout frames messages: its <code>{'{{ content }}'}</code> is where each template or campaign goes. HTML
        layouts frame HTML messages; MJML layouts frame MJML and block messages. Messages that name no layout use the
        default one (when it fits their format).
      </p>
      {makeDefault.error !== null && <ErrorMessage error={makeDefault.error} />}
      <AsyncView
        state={list}
        isEmpty={(page) => page.items.length === 0}
        empty={
          <p>
            No layouts yet.
            {canEdit && (
              <>
                {' '}
                <Link to="/layouts/new">Make the first one</Link>.
              </>
            )}
          </p>
        }
      >
        {(page) => (
          <DataTable
            caption="Layouts"
            rows={page.items}
            rowKey={(l) => l.id}
            columns={[
              { label: 'Name', render: (l) => <Link to={`/layouts/${l.id}`}>{l.name}</Link> },
              { label: 'Format', render: (l) => (l.format === 'html' ? 'HTML' : 'MJML') },
              {
                label: 'Default',
                render: (l) =>
                  l.isDefault ? (
                    <span className="badge badge-good">Default</span>
                  ) : canEdit ? (
                    <button
                      type="button"
                      className="secondary small"
                      aria-label={`Make ${l.name} the default`}
                      disabled={makeDefault.isPending}
                      onClick={() => makeDefault.mutate(l.id)}
                    >
                      Make default
                    </button>
                  ) : (
                    '—'
                  ),
              },
              { label: 'Updated', render: (l) => formatDateTime(l.updatedAt) },
            ]}
          />
        )}
      </AsyncView>
      {canEdit && list.data?.items.some((l) => l.isDefault) && (
        <p className="hint">
          <button
            type="button"
            className="secondary small"
            disabled={makeDefault.isPending}
            onClick={() => makeDefault.mutate(null)}
          >
            Use no default layout
          </button>
        </p>
      )}
    </>
  );
}
