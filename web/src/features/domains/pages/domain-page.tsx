import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Domain, DomainRecord } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, CopyButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { deleteDomain, getDomain, setReceiving, setTrackingHost, verifyDomain } from '../api.ts';
import { ProviderLimitsPanel } from '../components/provider-limits.tsx';
import { ThroughputPanel } from '../components/throughput-panel.tsx';
import { BlocklistsPanel } from '../components/blocklists-panel.tsx';
import { WarmupPanel } from '../components/warmup-panel.tsx';

const PURPOSE: Record<DomainRecord['purpose'], string> = {
  DKIM: 'DKIM signature key',
  SPF: 'SPF (who may send)',
  DMARC: 'DMARC policy',
  DMARC_REPORTS: 'DMARC report authorisation (on the report host)',
  TLS_REPORTS: 'TLS reports (SMTP TLS reporting)',
  RETURN_PATH: 'Return path (bounces)',
  INBOUND: 'MX (receiving mail)',
  TRACKING: 'Tracking host (links and open pixel)',
};

/**
 * What a record is needed for: sending (`required`), receiving (the MX record: mail reaches Herald only through it,
 * though the domain sends without it), or nothing but better delivery (recommended).
 */
function need(record: DomainRecord): string {
  return record.required ? 'required' : record.purpose === 'INBOUND' ? 'required to receive mail' : 'recommended';
}

/** A record's state: a required record's status, or for one not needed to send a warning at worst (never red). */
function RecordState({ record }: { record: DomainRecord }) {
  if (record.required || record.status === 'VERIFIED') return <StatusBadge status={record.status} />;
  const title =
    record.purpose === 'INBOUND'
      ? 'Required to receive mail; the domain sends without it'
      : 'Recommended, not required: the domain sends without it';
  return (
    <span className="badge badge-wait" title={title}>
      {record.status === 'FAILED' ? 'NOT SET UP' : 'PENDING'}
    </span>
  );
}

function RecordCard({ record }: { record: DomainRecord }) {
  return (
    <li className="record" data-purpose={record.purpose}>
      <div className="record-head">
        <h3>
          {PURPOSE[record.purpose]} <span className="muted">{need(record)}</span>
        </h3>
        <RecordState record={record} />
      </div>
      {record.reason && (
        <p
          className={record.required && record.status === 'FAILED' ? 'record-reason bad' : 'record-reason'}
          data-testid="record-reason"
        >
          {record.required
            ? 'Not verified: '
            : record.purpose === 'INBOUND'
              ? 'Mail cannot arrive yet: '
              : 'Recommended — '}
          {record.reason}.
        </p>
      )}
      <dl>
        <dt>Type</dt>
        <dd>
          <code>{record.type}</code>
        </dd>
        <dt>Name</dt>
        <dd className="copyable">
          <code>{record.name}</code>
          <CopyButton value={record.name} label={`${record.purpose} record name`} />
        </dd>
        <dt>Value</dt>
        <dd className="copyable">
          <code className="wrap">{record.value}</code>
          <CopyButton value={record.value} label={`${record.purpose} record value`} />
        </dd>
      </dl>
      {record.values && record.values.length > 1 && (
        <details>
          <summary>Split into {record.values.length} strings (for DNS providers that need it)</summary>
          <code className="wrap">{record.values.map((v) => `"${v}"`).join(' ')}</code>
          <CopyButton
            value={record.values.map((v) => `"${v}"`).join(' ')}
            label={`${record.purpose} record as strings`}
          />
        </details>
      )}
    </li>
  );
}

/**
 * Why no SPF record is suggested: this Herald does not know which servers send its mail (a relay named by host,
 * or the outbox), and a record that names nobody would authorise nobody.
 */
function NoSpfNote({ domain }: { domain: string }) {
  return (
    <p className="hint" data-testid="no-spf">
      No SPF record is suggested for {domain}: this Herald does not know which servers send its mail. Your mail provider
      names what to include (for example <code>include:_spf.provider.example</code>); publish{' '}
      <code>v=spf1 include:… ~all</code> with it, or set <code>SPF_INCLUDE</code> on the server to have it suggested
      here. DKIM alone already lets mail pass DMARC.
    </p>
  );
}

/** The custom tracking host: links and the open pixel of mail from the domain use it once its CNAME verifies. */
function TrackingHostPanel({ domain, onSaved }: { domain: Domain; onSaved: (domain: Domain) => void }) {
  const api = useApi();
  const canEdit = useCan('admin');
  const [host, setHost] = useState(domain.trackingHost ?? '');
  const save = useMutation({
    mutationFn: (value: string | null) => setTrackingHost(api, domain.id, value),
    onSuccess: onSaved,
  });
  return (
    <section className="panel" aria-labelledby="tracking-title">
      <h2 id="tracking-title">Tracking host</h2>
      {canEdit && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(host.trim());
          }}
        >
          <div className="field">
            <label htmlFor="tracking-host">Host for links and the open pixel</label>
            <input
              id="tracking-host"
              value={host}
              placeholder={`links.${domain.domain}`}
              onChange={(e) => setHost(e.target.value)}
            />
          </div>
          <button type="submit" disabled={save.isPending || host.trim() === ''}>
            Save tracking host
          </button>
          {domain.trackingHost !== null && (
            <button
              type="button"
              disabled={save.isPending}
              onClick={() => {
                setHost('');
                save.mutate(null);
              }}
            >
              Remove
            </button>
          )}
        </form>
      )}
      <p className="hint" data-testid="tracking-state">
        {domain.trackingHost === null
          ? "Links in mail use this Herald's own address."
          : domain.trackingVerified
            ? `Links in mail from ${domain.domain} use https://${domain.trackingHost}.`
            : `Publish the CNAME record below, then verify: until then links use this Herald's own address.`}
      </p>
      {save.error !== null && <ErrorMessage error={save.error} />}
    </section>
  );
}

const warmupKey = ({ warmup }: Domain) =>
  warmup ? `${warmup.enabled}:${warmup.startedOn}:${warmup.schedule.join(',')}` : 'none';

/** How the domain's mail goes out: its throughput per provider, its limits per provider, and its warm-up. */
function SendingPanels({ domain, onSaved }: { domain: Domain; onSaved: (domain: Domain) => void }) {
  const canEdit = useCan('admin');
  return (
    <>
      <ThroughputPanel domainId={domain.id} />
      <BlocklistsPanel domainId={domain.id} canCheck={canEdit} />
      <ReadOnly when={!canEdit}>
        <div className="two-columns">
          <ProviderLimitsPanel domain={domain} onSaved={onSaved} />
          {/* The warm-up as saved last fills its form anew. */}
          <WarmupPanel key={warmupKey(domain)} domain={domain} onSaved={onSaved} />
        </div>
      </ReadOnly>
    </>
  );
}

/**
 * A sender domain: the DNS records to publish, each with its status, and a check now; how its mail goes out (first
 * once it is verified, when the records are done with).
 */
export function DomainPage({ id }: { id: string }) {
  const api = useApi();
  const canEdit = useCan('admin');
  const cache = useProjectCache();
  const state = useProjectQuery(['domains', id], (client) => getDomain(client, id));
  const saved = (domain: Domain) => {
    cache.set(['domains', id], domain);
    void cache.invalidate(['domains']);
  };
  const verify = useMutation({ mutationFn: () => verifyDomain(api, id), onSuccess: saved });
  const receive = useMutation({ mutationFn: (on: boolean) => setReceiving(api, id, on), onSuccess: saved });
  const remove = useMutation({
    mutationFn: () => deleteDomain(api, id),
    onSuccess: () => {
      navigate('/domains');
      cache.forget(['domains', id]);
      void cache.invalidate(['domains']);
    },
  });
  return (
    <AsyncView state={state}>
      {(domain) => (
        <>
          <PageHeader title={domain.domain} back={['/domains', 'Domains']}>
            <StatusBadge status={domain.status} />
            <Link to={`/domains/${id}/deliverability`} className="button secondary">
              Deliverability
            </Link>
            {canEdit && (
              <>
                <button type="button" onClick={() => verify.mutate()} disabled={verify.isPending}>
                  {verify.isPending ? 'Checking DNS…' : 'Verify DNS records'}
                </button>
                <ConfirmButton label="Delete domain" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
              </>
            )}
          </PageHeader>
          {verify.error !== null && <ErrorMessage error={verify.error} />}
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <p className="muted" aria-live="polite">
            {domain.status === 'VERIFIED'
              ? `Verified ${formatDateTime(domain.verifiedAt)}. `
              : 'Publish the records below at your DNS provider, then verify. '}
            Last checked {formatDateTime(domain.lastCheckedAt)}.
          </p>
          <section className="panel" aria-labelledby="receiving-title">
            <h2 id="receiving-title">Receive mail</h2>
            <label className="check">
              <input
                type="checkbox"
                checked={domain.receiving}
                disabled={!canEdit || receive.isPending || (!domain.receiving && domain.status !== 'VERIFIED')}
                onChange={(e) => receive.mutate(e.target.checked)}
              />{' '}
              Receive mail at any address @{domain.domain}
            </label>
            <p className="hint">
              {domain.status === 'VERIFIED'
                ? 'Received messages appear on the Inbound page; publish the MX record below to route mail here.'
                : 'Verify the domain first: only a verified domain can receive mail.'}
            </p>
            {receive.error !== null && <ErrorMessage error={receive.error} />}
          </section>
          <TrackingHostPanel domain={domain} onSaved={saved} />
          {domain.status === 'VERIFIED' && <SendingPanels domain={domain} onSaved={saved} />}
          <ul className="records">
            {domain.records.map((r) => (
              <RecordCard key={`${r.purpose}:${r.name}`} record={r} />
            ))}
          </ul>
          {/* A local (.localhost) domain's mail never leaves the machine: it has no SPF to publish. */}
          {!domain.records.some((r) => r.purpose === 'SPF') && !/(^|\.)localhost$/.test(domain.domain) && (
            <NoSpfNote domain={domain.domain} />
          )}
          {domain.status !== 'VERIFIED' && <SendingPanels domain={domain} onSaved={saved} />}
        </>
      )}
    </AsyncView>
  );
}
