import { useState } from 'react';
import { useSession } from '../../../app/session/session-context.tsx';
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
import { createKey, listKeys, revokeKey } from '../api.ts';

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
