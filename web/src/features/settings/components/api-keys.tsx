import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useIsPerson } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { AsyncView, ErrorMessage, type QueryState } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, CopyButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import {
  createOwnKey,
  getCurrentKey,
  listOwnKeys,
  listVerifiedDomains,
  revokeOwnKey,
  type NewKeyOptions,
} from '../api.ts';
import { endOfLocalDay, localDay } from '../key-expiry.ts';

type Scope = NonNullable<NewKeyOptions['scope']>;
const SCOPES: { value: Scope; label: string }[] = [
  { value: 'full', label: 'Full' },
  { value: 'sending', label: 'Sending only' },
  { value: 'read', label: 'Read only' },
];

type VerifiedDomains = QueryState<Awaited<ReturnType<typeof listVerifiedDomains>>>;

/**
 * The options of a new key: name, scope, sender domains, expiry (a day in the browser's zone, today at the earliest;
 * the key lasts to its end).
 */
function NewKeyFields({
  domains,
  value,
  onChange,
}: {
  domains: VerifiedDomains;
  value: NewKeyOptions;
  onChange: (next: NewKeyOptions) => void;
}) {
  const chosen = value.domainIds ?? [];
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((d) => d !== id);
    onChange({ ...value, domainIds: next.length > 0 ? next : undefined });
  };
  return (
    <fieldset className="panel" aria-label="New key">
      <div className="grid-2">
        <div className="field">
          <label htmlFor="key-name">Key name</label>
          <input
            id="key-name"
            placeholder="CI deploys"
            value={value.name ?? ''}
            onChange={(e) => onChange({ ...value, name: e.target.value || undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor="key-scope">Scope</label>
          <select
            id="key-scope"
            value={value.scope ?? 'full'}
            onChange={(e) => {
              const scope = e.target.value as Scope;
              onChange({ ...value, scope, ...(scope === 'sending' ? {} : { domainIds: undefined }) });
            }}
          >
            {SCOPES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="key-expires">Expires (optional)</label>
          <input
            id="key-expires"
            type="date"
            min={localDay(new Date())}
            value={value.expiresAt ? localDay(new Date(value.expiresAt)) : ''}
            onChange={(e) =>
              onChange({ ...value, expiresAt: e.target.value ? endOfLocalDay(e.target.value) : undefined })
            }
          />
        </div>
      </div>
      {value.scope === 'sending' && (
        <AsyncView
          state={domains}
          isEmpty={(d) => d.items.length === 0}
          empty={<p className="muted">No verified sender domain to restrict a key to.</p>}
        >
          {(d) => (
            <div className="checkbox-grid" role="group" aria-label="Sender domains">
              <span className="muted">Send only from (none ticked: any verified domain):</span>
              {d.items.map((domain) => (
                <label key={domain.id} className="check">
                  <input
                    type="checkbox"
                    checked={chosen.includes(domain.id)}
                    onChange={(e) => toggle(domain.id, e.target.checked)}
                  />{' '}
                  <code>{domain.domain}</code>
                </label>
              ))}
            </div>
          )}
        </AsyncView>
      )}
    </fieldset>
  );
}

/** The project's API keys, managed with the signed-in full key: create (scope, domains, expiry), list, revoke. */
export function ApiKeysPanel({ projectName }: { projectName: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const keys = useProjectQuery(['keys', 'list'], listOwnKeys);
  const domains = useProjectQuery(['domains', 'verified'], listVerifiedDomains);
  const domainName = (id: string) => domains.data?.items.find((d) => d.id === id)?.domain ?? id;
  // A person signs in with no key of the project: every key may be revoked.
  const person = useIsPerson();
  const current = useProjectQuery(['keys', 'current'], getCurrentKey, { enabled: !person });
  const [options, setOptions] = useState<NewKeyOptions>({});
  const [created, setCreated] = useState<{ type: string; key: string } | null>(null);
  const changed = () => void cache.invalidate(['keys']);
  const create = useMutation({
    // A public key only tracks: it takes no scope or domains.
    mutationFn: (type: 'secret' | 'public') =>
      createOwnKey(api, type, type === 'public' ? { name: options.name, expiresAt: options.expiresAt } : options),
    onSuccess: (key) => {
      setCreated(key);
      setOptions({});
      changed();
    },
  });
  const revoke = useMutation({ mutationFn: (keyId: string) => revokeOwnKey(api, keyId), onSuccess: changed });
  const ownId = current.data?.id ?? null;
  return (
    <section className="panel" aria-labelledby="keys-title">
      <div className="panel-head">
        <h2 id="keys-title">API keys of {projectName}</h2>
        <div className="actions">
          <button type="button" disabled={create.isPending} onClick={() => create.mutate('secret')}>
            New secret key
          </button>
          <button
            type="button"
            className="secondary"
            disabled={create.isPending}
            onClick={() => create.mutate('public')}
          >
            New public key
          </button>
        </div>
      </div>
      <NewKeyFields domains={domains} value={options} onChange={setOptions} />
      {create.error !== null && <ErrorMessage error={create.error} />}
      {revoke.error !== null && <ErrorMessage error={revoke.error} />}
      {created && (
        <div className="notice secret" role="status">
          <p>
            <strong>New {created.type} key</strong> — copy it now; only its prefix is kept.
          </p>
          <p className="copyable">
            <code className="wrap" data-testid="new-key">
              {created.key}
            </code>
            <CopyButton value={created.key} label="new key" />
          </p>
        </div>
      )}
      <AsyncView state={keys} isEmpty={(k) => k.items.length === 0} empty={<p>This project has no keys.</p>}>
        {(k) => (
          <DataTable
            caption="API keys"
            rows={k.items}
            rowKey={(key) => key.id}
            columns={[
              {
                label: 'Name',
                render: (key) => (
                  <>
                    {key.name}
                    {key.session && (
                      <>
                        {' '}
                        <span
                          className="badge badge-neutral"
                          title="Made for one dashboard sign-in: revoked when that session ends, or after 12 hours idle"
                        >
                          Session
                        </span>
                      </>
                    )}
                  </>
                ),
              },
              { label: 'Key', render: (key) => <code>{key.prefix}…</code> },
              { label: 'Type', render: (key) => key.type },
              { label: 'Scope', render: (key) => key.scope },
              { label: 'Domains', render: (key) => (key.domainIds ? key.domainIds.map(domainName).join(', ') : 'any') },
              { label: 'Created', render: (key) => formatDateTime(key.createdAt) },
              { label: 'Last used', render: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'never') },
              { label: 'Expires', render: (key) => (key.expiresAt ? formatDateTime(key.expiresAt) : 'never') },
              { label: 'State', render: (key) => <StatusBadge status={key.revokedAt ? 'revoked' : 'enabled'} /> },
              {
                label: 'Revoke',
                render: (key) =>
                  key.revokedAt ? (
                    '—'
                  ) : key.id === ownId ? (
                    <span className="muted">this session’s key</span>
                  ) : (
                    <ConfirmButton
                      label="Revoke"
                      confirmLabel="Yes, revoke"
                      onConfirm={() => revoke.mutate(key.id)}
                      disabled={revoke.isPending}
                    />
                  ),
              },
            ]}
          />
        )}
      </AsyncView>
    </section>
  );
}
