import { useApi } from '../../../app/session/session-context.tsx';
import type { Campaign } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAction } from '../../../shared/hooks/use-action.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { cancelCampaign, deleteCampaign, getCampaign } from '../api.ts';
import { CampaignEditor } from '../components/campaign-editor.tsx';
import { CampaignProgress } from '../components/campaign-progress.tsx';
import { CampaignSend } from '../components/campaign-send.tsx';

const BLANK: Campaign = {
  id: '', name: '', description: null, subject: '', from: '', fromName: null, replyTo: null, type: 'ALL', audienceType: 'ALL', segmentId: null,
  audienceFilter: null, status: 'DRAFT', scheduledAt: null, sentAt: null, recipientCount: 0, createdAt: '', updatedAt: '',
  body: '<p>Hi {{ firstName ?? "there" }},</p>\n<p>…</p>\n<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>',
};

/** A campaign: edit while DRAFT or SCHEDULED, send/schedule/cancel, then live progress and stats. */
export function CampaignPage({ id }: { id: string }) {
  const api = useApi();
  const state = useAsync(() => (id === 'new' ? Promise.resolve(BLANK) : getCampaign(api, id)), [api, id]);
  const cancel = useAction(async () => {
    await cancelCampaign(api, id);
    state.reload();
  });
  const remove = useAction(async () => {
    await deleteCampaign(api, id);
    navigate('/campaigns');
  });
  return (
    <AsyncView state={state}>
      {(campaign) => {
        const editable = campaign.status === 'DRAFT' || campaign.status === 'SCHEDULED';
        return (
          <>
            <PageHeader title={campaign.id ? campaign.name : 'New campaign'} back={['/campaigns', 'Campaigns']}>
              {campaign.id && <span data-testid="campaign-status"><StatusBadge status={campaign.status} /></span>}
              {(campaign.status === 'SCHEDULED' || campaign.status === 'SENDING') && (
                <ConfirmButton label="Cancel campaign" onConfirm={() => void cancel.run()} disabled={cancel.busy} />
              )}
              {campaign.id && campaign.status === 'DRAFT' && <ConfirmButton label="Delete draft" onConfirm={() => void remove.run()} disabled={remove.busy} />}
            </PageHeader>
            {cancel.error !== null && <ErrorMessage error={cancel.error} />}
            {remove.error !== null && <ErrorMessage error={remove.error} />}
            {campaign.sentAt && <p className="muted">Sending began {formatDateTime(campaign.sentAt)}. <Link to={`/emails?source=${campaign.id}`}>See its emails</Link>.</p>}
            {editable ? (
              <div className="editor-layout">
                <CampaignEditor key={campaign.updatedAt || 'new'} campaign={campaign} onSaved={state.setData} />
                {campaign.id ? <CampaignSend campaign={campaign} onChanged={state.reload} /> : (
                  <section className="panel"><h2>Next</h2><p>Create the draft to see how many contacts it would reach now, send yourself a test, then send it or schedule it.</p></section>
                )}
              </div>
            ) : (
              <CampaignProgress campaign={campaign} onTick={state.reload} />
            )}
          </>
        );
      }}
    </AsyncView>
  );
}
