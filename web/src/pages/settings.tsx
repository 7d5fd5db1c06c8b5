import { useState } from 'react';
import { seg, type Api } from '../api/client.ts';
import type { ApiKey, CreatedKey } from '../api/types.ts';
import { useSession } from '../auth/session-context.tsx';
import type { AdminSession } from '../auth/session.ts';
import { AsyncView, ErrorMessage } from '../components/async-state.tsx';
import { ConfirmButton, CopyButton, StatusBadge } from '../components/buttons.tsx';
import { DataTable } from '../components/data-table.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useAction } from '../lib/use-action.ts';
import { useAsync } from '../lib/use-async.ts';
import { PageHeader } from '../shell.tsx';

function Keys({ adminApi, session }: { adminApi: Api; session: AdminSession }) {
  const projectId = session.projectId!;
  const path = `/admin/projects/${seg(projectId)}/keys`;
  const keys = useAsync(() => adminApi.get<{ items: ApiKey[] }>(path), [adminApi, path]);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const create = useAction(async (type: 'secret' | 'public') => {
    setCreated(await adminApi.post<CreatedKey>(path, { type }));
    keys.reload();
  });
  const revoke = useAction(async (keyId: string) => {
    await adminApi.delete(`${path}/${seg(keyId)}`);
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
            { label: 'Key', render: (key) => <code>{key.prefix}…</code> },
            { label: 'Type', render: (key) => key.type },
            { label: 'Created', render: (key) => formatDateTime(key.createdAt) },
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

/** Settings: the project's API keys (with the admin token), and how to call the API. */
export function SettingsPage() {
  const { session, adminApi } = useSession();
  return (
    <>
      <PageHeader title="Settings" />
      {session?.mode === 'admin' && adminApi && session.projectId ? (
        <Keys adminApi={adminApi} session={session} />
      ) : (
        <section className="panel">
          <h2>API keys</h2>
          <p>You are signed in with a project secret key. Keys are created and revoked with the admin token: sign in with it to manage this project’s keys, or use <code>npm run herald -- keys create &lt;projectId&gt; --type secret</code>.</p>
        </section>
      )}
      <section className="panel">
        <h2>Calling the API</h2>
        <p>Base URL: <code>{window.location.origin}</code> · reference: <a href="/docs">/docs</a> · <a href="/openapi.json">OpenAPI document</a></p>
        <pre className="source">{`curl ${window.location.origin}/v1/send \\
  -H "Authorization: Bearer sk_…" -H "Content-Type: application/json" \\
  -d '{"to": "ada@example.com", "from": "hello@mail.example.com", "subject": "Hi", "body": "<p>Hello</p>"}'`}</pre>
      </section>
    </>
  );
}
