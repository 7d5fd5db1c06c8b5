import { useApi } from '../../../app/session/session-context.tsx';
import type { DomainRecord } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAction } from '../../../shared/hooks/use-action.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, CopyButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { deleteDomain, getDomain, verifyDomain } from '../api.ts';

const PURPOSE: Record<DomainRecord['purpose'], string> = {
  DKIM: 'DKIM signature key', SPF: 'SPF (who may send)', DMARC: 'DMARC policy', RETURN_PATH: 'Return path (bounces)',
};

function RecordCard({ record }: { record: DomainRecord }) {
  return (
    <li className="record" data-purpose={record.purpose}>
      <div className="record-head">
        <h3>{PURPOSE[record.purpose]} <span className="muted">{record.required ? 'required' : 'advised'}</span></h3>
        <StatusBadge status={record.status} />
      </div>
      <dl>
        <dt>Type</dt><dd><code>{record.type}</code></dd>
        <dt>Name</dt><dd className="copyable"><code>{record.name}</code><CopyButton value={record.name} label={`${record.purpose} record name`} /></dd>
        <dt>Value</dt><dd className="copyable"><code className="wrap">{record.value}</code><CopyButton value={record.value} label={`${record.purpose} record value`} /></dd>
      </dl>
      {record.values && record.values.length > 1 && (
        <details>
          <summary>Split into {record.values.length} strings (for DNS providers that need it)</summary>
          <code className="wrap">{record.values.map((v) => `"${v}"`).join(' ')}</code>
          <CopyButton value={record.values.map((v) => `"${v}"`).join(' ')} label={`${record.purpose} record as strings`} />
        </details>
      )}
    </li>
  );
}

/** A sender domain: the DNS records to publish, each with its status, and a check now. */
export function DomainPage({ id }: { id: string }) {
  const api = useApi();
  const state = useAsync(() => getDomain(api, id), [api, id]);
  const verify = useAction(async () => state.setData(await verifyDomain(api, id)));
  const remove = useAction(async () => {
    await deleteDomain(api, id);
    navigate('/domains');
  });
  return (
    <AsyncView state={state}>
      {(domain) => (
        <>
          <PageHeader title={domain.domain} back={['/domains', 'Domains']}>
            <StatusBadge status={domain.status} />
            <button type="button" onClick={() => void verify.run()} disabled={verify.busy}>{verify.busy ? 'Checking DNS…' : 'Verify DNS records'}</button>
            <ConfirmButton label="Delete domain" onConfirm={() => void remove.run()} disabled={remove.busy} />
          </PageHeader>
          {verify.error !== null && <ErrorMessage error={verify.error} />}
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <p className="muted" aria-live="polite">
            {domain.status === 'VERIFIED' ? `Verified ${formatDateTime(domain.verifiedAt)}. ` : 'Publish the records below at your DNS provider, then verify. '}
            Last checked {formatDateTime(domain.lastCheckedAt)}.
          </p>
          <ul className="records">{domain.records.map((r) => <RecordCard key={`${r.purpose}:${r.name}`} record={r} />)}</ul>
        </>
      )}
    </AsyncView>
  );
}
