import { useApi } from '../../../app/session/session-context.tsx';
import type { Campaign } from '../../../shared/api/types.ts';
import { formatDateTime, formatDay } from '../../../shared/format.ts';
import { useAction } from '../../../shared/hooks/use-action.ts';
import { useAsync } from '../../../shared/hooks/use-async.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { cancelCampaign, createFollowUp, deleteCampaign, duplicateCampaign, getCampaign, pauseCampaign, resumeCampaign, unscheduleCampaign } from '../api.ts';
import { CampaignContent } from '../components/campaign-content.tsx';
import { CampaignEditor } from '../components/campaign-editor.tsx';
import { CampaignProgress } from '../components/campaign-progress.tsx';
import { CampaignSend } from '../components/campaign-send.tsx';

const BLANK: Campaign = {
  id: '', name: '', description: null, subject: '', from: '', fromName: null, replyTo: null, type: 'ALL', audienceType: 'ALL', segmentId: null,
  audienceFilter: null, topicId: null, status: 'DRAFT', pausedReason: null, variants: null, abTest: null, testEndsAt: null, winnerVariantId: null,
  scheduledAt: null, sendAt: null, sentAt: null, recipientCount: 0, createdAt: '', updatedAt: '',
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
  const pause = useAction(async () => state.setData(await pauseCampaign(api, id)));
  const resume = useAction(async () => state.setData(await resumeCampaign(api, id)));
  const followUp = useAction(async (audience: 'nonOpeners' | 'nonClickers') => navigate(`/campaigns/${(await createFollowUp(api, id, audience)).id}`));
  const duplicate = useAction(async () => {
    const copy = await duplicateCampaign(api, id);
    navigate(`/campaigns/${copy.id}`);
  });
  return (
    <AsyncView state={state}>
      {(campaign) => {
        // A local-time send whose emails are queued (waiting for their time zones) can only be paused or cancelled.
        const underway = campaign.status === 'SCHEDULED' && campaign.sendAt !== null && campaign.sentAt !== null;
        const editable = (campaign.status === 'DRAFT' || campaign.status === 'SCHEDULED') && !underway;
        return (
          <>
            <PageHeader title={campaign.id ? campaign.name : 'New campaign'} back={['/campaigns', 'Campaigns']} {...(campaign.id ? { id: { noun: 'Campaign', value: campaign.id } } : {})}>
              {campaign.id && <span data-testid="campaign-status"><StatusBadge status={campaign.status} /></span>}
              {campaign.status === 'SCHEDULED' && !underway && (
                <button type="button" className="secondary" onClick={() => void unschedule.run()} disabled={unschedule.busy}>Unschedule</button>
              )}
              {(campaign.status === 'SENDING' || campaign.status === 'TESTING' || underway) && (
                <button type="button" className="secondary" onClick={() => void pause.run()} disabled={pause.busy}>Pause</button>
              )}
              {campaign.status === 'PAUSED' && <button type="button" onClick={() => void resume.run()} disabled={resume.busy}>Resume</button>}
              {campaign.sentAt && (
                <>
                  <button type="button" className="secondary" onClick={() => void followUp.run('nonOpeners')} disabled={followUp.busy}>Follow up non-openers</button>
                  <button type="button" className="secondary" onClick={() => void followUp.run('nonClickers')} disabled={followUp.busy}>Follow up non-clickers</button>
                </>
              )}
              {(['SCHEDULED', 'SENDING', 'TESTING', 'PAUSED'] as string[]).includes(campaign.status) && (
                <ConfirmButton label="Cancel campaign" confirmLabel="Stop sending" keepLabel="Keep sending" onConfirm={() => void cancel.run()} disabled={cancel.busy} />
              )}
              {campaign.id && <button type="button" className="secondary" onClick={() => void duplicate.run()} disabled={duplicate.busy}>Duplicate</button>}
              {campaign.id && DELETABLE.includes(campaign.status) && (
                <ConfirmButton label={campaign.status === 'DRAFT' ? 'Delete draft' : 'Delete campaign'} keepLabel="Keep it" onConfirm={() => void remove.run()} disabled={remove.busy} />
              )}
            </PageHeader>
            {campaign.status === 'PAUSED' && (
              <p role="status" className="notice" data-testid="paused-reason">
                {campaign.pausedReason ? `Paused by the reputation guard: ${campaign.pausedReason}.` : 'Paused: nothing more is sent until you resume it.'}
              </p>
            )}
            {[cancel, remove, unschedule, duplicate, pause, resume, followUp].map((action, i) => action.error !== null && <ErrorMessage key={i} error={action.error} />)}
            {campaign.status !== 'DRAFT' && DELETABLE.includes(campaign.status) && <p className="hint">Deleting a sent or cancelled campaign keeps its emails in the email log.</p>}
            {underway && campaign.sendAt && (
              <p role="status" className="notice" data-testid="local-time-waiting">
                Going out at {campaign.sendAt.localTime} on {formatDay(campaign.sendAt.date)} in each recipient’s time zone: the emails wait in the queue for their turn.
              </p>
            )}
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
