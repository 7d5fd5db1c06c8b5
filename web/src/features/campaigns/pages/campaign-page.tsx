import { useApi } from '../../../app/session/session-context.tsx';
import type { Campaign } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useAction } from '../../../shared/hooks/use-action.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { cancelCampaign, deleteCampaign, duplicateCampaign, getCampaign, unscheduleCampaign } from '../api.ts';
import { CampaignContent } from '../components/campaign-content.tsx';
import { CampaignEditor } from '../components/campaign-editor.tsx';
import { CampaignProgress } from '../components/campaign-progress.tsx';
import { CampaignSend } from '../components/campaign-send.tsx';

const BLANK: Campaign = {
  id: '', name: '', description: null, subject: '', from: '', fromName: null, replyTo: null, type: 'ALL', audienceType: 'ALL', segmentId: null,
  audienceFilter: null, status: 'DRAFT', scheduledAt: null, sentAt: null, recipientCount: 0, createdAt: '', updatedAt: '',
  body: '<p>Hi {{ firstName ?? "there" }},</p>\n<p>…</p>\n<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>',
};

/** Statuses in which a campaign may be deleted (nothing of it on its way). */
const DELETABLE: string[] = ['DRAFT', 'SENT', 'CANCELLED'];

/** A campaign: edit while DRAFT or SCHEDULED, send/schedule/unschedule/cancel, then live progress, stats and what it sent. */
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
  const unschedule = useAction(async () => {
    state.setData(await unscheduleCampaign(api, id));
  });
  const duplicate = useAction(async () => {
    const copy = await duplicateCampaign(api, id);
    navigate(`/campaigns/${copy.id}`);
  });
  return (
    <AsyncView state={state}>
      {(campaign) => {
        const editable = campaign.status === 'DRAFT' || campaign.status === 'SCHEDULED';
        return (
          <>
            <PageHeader title={campaign.id ? campaign.name : 'New campaign'} back={['/campaigns', 'Campaigns']} {...(campaign.id ? { id: { noun: 'Campaign', value: campaign.id } } : {})}>
              {campaign.id && <span data-testid="campaign-status"><StatusBadge status={campaign.status} /></span>}
              {campaign.status === 'SCHEDULED' && (
                <button type="button" className="secondary" onClick={() => void unschedule.run()} disabled={unschedule.busy}>Unschedule</button>
              )}
              {(campaign.status === 'SCHEDULED' || campaign.status === 'SENDING') && (
                <ConfirmButton label="Cancel campaign" confirmLabel="Stop sending" keepLabel="Keep sending" onConfirm={() => void cancel.run()} disabled={cancel.busy} />
              )}
              {campaign.id && <button type="button" className="secondary" onClick={() => void duplicate.run()} disabled={duplicate.busy}>Duplicate</button>}
              {campaign.id && DELETABLE.includes(campaign.status) && (
                <ConfirmButton label={campaign.status === 'DRAFT' ? 'Delete draft' : 'Delete campaign'} keepLabel="Keep it" onConfirm={() => void remove.run()} disabled={remove.busy} />
              )}
            </PageHeader>
            {[cancel, remove, unschedule, duplicate].map((action, i) => action.error !== null && <ErrorMessage key={i} error={action.error} />)}
            {campaign.status !== 'DRAFT' && DELETABLE.includes(campaign.status) && <p className="hint">Deleting a sent or cancelled campaign keeps its emails in the email log.</p>}
            {campaign.sentAt && <p className="muted">Sending began {formatDateTime(campaign.sentAt)}. <Link to={`/emails?source=${campaign.id}`}>See its emails</Link>.</p>}
            {editable ? (
              <div className="editor-layout">
                <CampaignEditor key={campaign.updatedAt || 'new'} campaign={campaign} onSaved={state.setData} />
                {campaign.id ? <CampaignSend campaign={campaign} onChanged={state.reload} /> : (
                  <section className="panel"><h2>Next</h2><p>Create the draft to see how many contacts it would reach now, send yourself a test, then send it or schedule it.</p></section>
                )}
              </div>
            ) : (
              <div className="editor-layout">
                <CampaignProgress campaign={campaign} onTick={state.reload} />
                <CampaignContent campaign={campaign} />
              </div>
            )}
          </>
        );
      }}
    </AsyncView>
  );
}
