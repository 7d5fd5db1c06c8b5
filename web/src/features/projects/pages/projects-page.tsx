import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../../../app/session/session-context.tsx';
import type { CreatedProject, Project } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { CopyButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { createProject, listProjects, PROJECTS_KEY } from '../api.ts';

/** The instance's projects, for the admin token or an instance admin: open one, create one (its keys shown once). */
export function ProjectsPage() {
  const { adminApi, session, openProject } = useSession();
  const queryClient = useQueryClient();
  const projects = useQuery({
    queryKey: PROJECTS_KEY,
    queryFn: () =>
      adminApi
        ? listProjects(adminApi)
        : Promise.reject(new Error('Sign in with the admin token, or as an instance admin, to manage projects.')),
  });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedProject | null>(null);
  const create = useMutation({
    mutationFn: () => createProject(adminApi!, name),
    onSuccess: (project) => {
      setCreated(project);
      setName('');
      void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
    },
  });
  const open = useMutation({
    mutationFn: ({ project, key }: { project: Project; key?: string }) => openProject(project, key),
    onSuccess: () => navigate('/'),
  });
  const submit = submitWith(() => create.mutate());
  const current = session?.mode === 'admin' || session?.mode === 'person' ? session.projectId : null;
  return (
    <>
      <PageHeader title="Projects" />
      {!current && <p className="notice">Choose a project to open, or create one.</p>}
      <form className="panel inline-form" onSubmit={submit} aria-label="Create a project">
        <div className="field">
          <label htmlFor="project-name">New project name</label>
          <input id="project-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <button type="submit" disabled={create.isPending || !adminApi}>
          Create project
        </button>
        {create.error !== null && <ErrorMessage error={create.error} />}
      </form>
      {created && (
        <div className="notice secret" role="status">
          <p>
            <strong>{created.name}</strong> was created. Copy its keys now; they are not shown again.
          </p>
          <p className="copyable">
            Secret key: <code className="wrap">{created.secretKey}</code>
            <CopyButton value={created.secretKey} label="secret key" />
          </p>
          <p className="copyable">
            Public key: <code className="wrap">{created.publicKey}</code>
            <CopyButton value={created.publicKey} label="public key" />
          </p>
          <button type="button" onClick={() => open.mutate({ project: created, key: created.secretKey })}>
            Open {created.name}
          </button>
        </div>
      )}
      {open.error !== null && <ErrorMessage error={open.error} />}
      <AsyncView state={projects} isEmpty={(p) => p.items.length === 0} empty={<p>No projects yet.</p>}>
        {(page) => (
          <DataTable
            caption="Projects"
            rows={page.items}
            rowKey={(p) => p.id}
            columns={[
              { label: 'Name', render: (p) => p.name },
              { label: 'State', render: (p) => <StatusBadge status={p.disabled ? 'disabled' : 'enabled'} /> },
              { label: 'Created', render: (p) => formatDateTime(p.createdAt) },
              {
                label: 'Open',
                render: (p) =>
                  p.id === current ? (
                    <span className="muted">open now</span>
                  ) : (
                    <button
                      type="button"
                      className="secondary small"
                      disabled={open.isPending || p.disabled}
                      onClick={() => open.mutate({ project: p })}
                    >
                      Open
                    </button>
                  ),
              },
            ]}
          />
        )}
      </AsyncView>
    </>
  );
}
