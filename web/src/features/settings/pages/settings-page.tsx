import { useState } from 'react';
import { useApi, useSession } from '../../../app/session/session-context.tsx';
import type { AdminSession } from '../../../app/session/session.ts';
import type { Api } from '../../../shared/api/client.ts';
import type { CreatedKey } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAction } from '../../../shared/hooks/use-action.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, CopyButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { createKey, firstVerifiedDomain, getCurrentKey, listKeys, revokeKey } from '../api.ts';
import { Link } from '../../../shared/router.tsx';

function Keys({ adminApi, session }: { adminApi: Api; session: AdminSession }) {
  const projectId = session.projectId!;
  const keys = useAsync(() => listKeys(adminApi, projectId), [adminApi, projectId]);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const create = useAction(async (type: 'secret' | 'public') => {
    setCreated(await createKey(adminApi, projectId, type));
    keys.reload();
  });
  const revoke = useAction(async (keyId: string) => {
    await revokeKey(adminApi, projectId, keyId);
    keys.reload();
  });
  const sessionKeyId = session.projectKeys[projectId]?.keyId;
  return (
    <section className="panel" aria-labelledby="keys-title">
      <div className="panel-head">
        <h2 id="keys-title">API keys of {session.projectName}</h2>
        <div className="actions">
          <button type="button" disabled={create.busy} onClick={() => void create.run('secret')}>New secret key</button>
          <button type="button" className="secondary" disabled={create.busy} onClick={() => void create.run('public')}>New public key</button>
        </div>
      </div>
      {create.error !== null && <ErrorMessage error={create.error} />}
      {revoke.error !== null && <ErrorMessage error={revoke.error} />}
      {created && (
        <div className="notice secret" role="status">
          <p><strong>New {created.type} key</strong> — copy it now; only its prefix is kept.</p>
          <p className="copyable"><code className="wrap" data-testid="new-key">{created.key}</code><CopyButton value={created.key} label="new key" /></p>
        </div>
      )}
      <AsyncView state={keys} isEmpty={(k) => k.items.length === 0} empty={<p>This project has no keys.</p>}>
        {(k) => (
          <DataTable caption="API keys" rows={k.items} rowKey={(key) => key.id} columns={[
            { label: 'Name', render: (key) => <>{key.name}{key.session && <> <span className="badge badge-neutral" title="Made for one dashboard sign-in: revoked when that session ends, or after 12 hours idle">Session</span></>}</> },
            { label: 'Key', render: (key) => <code>{key.prefix}…</code> },
            { label: 'Type', render: (key) => key.type },
            { label: 'Created', render: (key) => formatDateTime(key.createdAt) },
            { label: 'Last used', render: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'never') },
            { label: 'State', render: (key) => <StatusBadge status={key.revokedAt ? 'revoked' : 'enabled'} /> },
            { label: 'Revoke', render: (key) => key.revokedAt ? '—' : key.id === sessionKeyId
              ? <span className="muted">this session’s key</span>
              : <ConfirmButton label="Revoke" confirmLabel="Yes, revoke" onConfirm={() => void revoke.run(key.id)} disabled={revoke.busy} /> },
          ]} />
        )}
      </AsyncView>
    </section>
  );
}

/** The project's name and id (from the signed-in key). */
function ProjectPanel({ api }: { api: Api }) {
  const current = useAsync(() => getCurrentKey(api), [api]);
  return (
    <section className="panel" aria-labelledby="project-title">
      <h2 id="project-title">Project</h2>
      <AsyncView state={current}>
        {(key) => (
          <dl className="details">
            <dt>Name</dt><dd>{key.project.name}</dd>
            <dt>Project ID</dt>
            <dd className="copyable"><code data-testid="project-id">{key.project.id}</code><CopyButton value={key.project.id} label="project ID" /></dd>
          </dl>
        )}
      </AsyncView>
    </section>
  );
}

/** The request of a first send, from a verified sender domain of this project, ready to paste. */
function sampleSend(origin: string, domain: string): string {
  const body = JSON.stringify({ to: 'you@example.com', from: `hello@${domain}`, subject: 'Hello from Herald', body: '<p>It works.</p>' });
  return `curl -X POST ${origin}/v1/send \\
  -H "Authorization: Bearer $HERALD_KEY" -H "Content-Type: application/json" \\
  -d '${body}'`;
}

function CallingTheApi({ api }: { api: Api }) {
  const domain = useAsync(() => firstVerifiedDomain(api), [api]);
  const origin = window.location.origin;
  return (
    <section className="panel" aria-labelledby="calling-title">
      <h2 id="calling-title">Calling the API</h2>
      <p>Base URL: <code>{origin}</code> · reference: <a href="/docs">/docs</a> · <a href="/openapi.json">OpenAPI document</a></p>
      <AsyncView state={domain}>
        {(verified) => verified ? (
          <>
            <p>Send a first email from <code>{verified}</code>, a verified sender domain of this project: set <code>HERALD_KEY</code> to a secret key (<code>export HERALD_KEY=sk_…</code>), then run</p>
            <div className="copyable">
              <pre className="source" data-testid="sample-curl">{sampleSend(origin, verified)}</pre>
              <CopyButton value={sampleSend(origin, verified)} label="sample request" />
            </div>
          </>
        ) : (
          <p>This project has no verified sender domain yet: <Link to="/domains">add and verify one</Link>, and a ready-to-run request appears here.</p>
        )}
      </AsyncView>
    </section>
  );
}

/** Settings: the project and its id, its API keys (with the admin token), and a request to send a first email. */
export function SettingsPage() {
  const { session, adminApi } = useSession();
  const api = useApi();
  return (
    <>
      <PageHeader title="Settings" />
      <ProjectPanel api={api} />
      {session?.mode === 'admin' && adminApi && session.projectId ? (
        <Keys adminApi={adminApi} session={session} />
      ) : (
        <section className="panel">
          <h2>API keys</h2>
          <p>You are signed in with a project secret key. Keys are created and revoked with the admin token: sign in with it to manage this project’s keys, or use <code>npm run herald -- keys create &lt;projectId&gt; --type secret</code>.</p>
        </section>
      )}
      <CallingTheApi api={api} />
    </>
  );
}
