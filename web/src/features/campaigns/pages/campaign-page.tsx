import type { ReactNode } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
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

/** A header button that runs one of the page's actions, disabled while it runs. */
function ActionButton({ onRun, busy, primary = false, children }: {
  onRun: () => Promise<unknown>; busy: boolean; primary?: boolean; children: ReactNode;
}) {
  return (
    <button type="button" className={primary ? undefined : 'secondary'} onClick={() => void onRun()} disabled={busy}>
      {children}
    </button>
  );
}

/** A campaign: edit while DRAFT or SCHEDULED, send/schedule/unschedule/cancel, then live progress, stats and what it sent. */
export function CampaignPage({ id }: { id: string }) {
  const api = useApi();
  // Viewers read a campaign; every action on it (saving, sending, pausing, deleting…) is an editor's.
  const canEdit = useCan('editor');
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
        // Every action on a campaign is an editor's: a viewer reads it.
        const actions = (
          <>
            {campaign.status === 'SCHEDULED' && !underway && (
              <ActionButton onRun={unschedule.run} busy={unschedule.busy}>Unschedule</ActionButton>
            )}
            {(campaign.status === 'SENDING' || campaign.status === 'TESTING' || underway) && (
              <ActionButton onRun={pause.run} busy={pause.busy}>Pause</ActionButton>
            )}
            {campaign.status === 'PAUSED' && (
              <ActionButton onRun={resume.run} busy={resume.busy} primary>Resume</ActionButton>
            )}
            {campaign.sentAt && (
              <>
                <ActionButton onRun={() => followUp.run('nonOpeners')} busy={followUp.busy}>
                  Follow up non-openers
                </ActionButton>
                <ActionButton onRun={() => followUp.run('nonClickers')} busy={followUp.busy}>
                  Follow up non-clickers
                </ActionButton>
              </>
            )}
            {(['SCHEDULED', 'SENDING', 'TESTING', 'PAUSED'] as string[]).includes(campaign.status) && (
              <ConfirmButton label="Cancel campaign" confirmLabel="Stop sending" keepLabel="Keep sending"
                onConfirm={() => void cancel.run()} disabled={cancel.busy} />
            )}
            {campaign.id && <ActionButton onRun={duplicate.run} busy={duplicate.busy}>Duplicate</ActionButton>}
            {campaign.id && DELETABLE.includes(campaign.status) && (
              <ConfirmButton label={campaign.status === 'DRAFT' ? 'Delete draft' : 'Delete campaign'}
                keepLabel="Keep it" onConfirm={() => void remove.run()} disabled={remove.busy} />
            )}
          </>
        );
        return (
          <>
            <PageHeader title={campaign.id ? campaign.name : 'New campaign'} back={['/campaigns', 'Campaigns']} {...(campaign.id ? { id: { noun: 'Campaign', value: campaign.id } } : {})}>
              {campaign.id && <span data-testid="campaign-status"><StatusBadge status={campaign.status} /></span>}
              {canEdit && actions}
            </PageHeader>
            {campaign.status === 'PAUSED' && (
              <p role="status" className="notice" data-testid="paused-reason">
                {campaign.pausedReason ? `Paused by the reputation guard: ${campaign.pausedReason}.` : 'Paused: nothing more is sent until you resume it.'}
              </p>
            )}
            {[cancel, remove, unschedule, duplicate, pause, resume, followUp].map((action, i) => action.error !== null && <ErrorMessage key={i} error={action.error} />)}
            {canEdit && campaign.status !== 'DRAFT' && DELETABLE.includes(campaign.status) && (
              <p className="hint">Deleting a sent or cancelled campaign keeps its emails in the email log.</p>
            )}
            {underway && campaign.sendAt && (
              <p role="status" className="notice" data-testid="local-time-waiting">
                Going out at {campaign.sendAt.localTime} on {formatDay(campaign.sendAt.date)} in each recipient’s time zone: the emails wait in the queue for their turn.
              </p>
            )}
            {campaign.sentAt && <p className="muted">Sending began {formatDateTime(campaign.sentAt)}. <Link to={`/emails?source=${campaign.id}`}>See its emails</Link>.</p>}
            {editable && !canEdit && <CampaignContent campaign={campaign} />}
            {editable && canEdit && (
              <div className="editor-layout">
                <CampaignEditor key={campaign.updatedAt || 'new'} campaign={campaign} onSaved={state.setData} />
                {campaign.id ? <CampaignSend campaign={campaign} onChanged={state.reload} /> : (
                  <section className="panel"><h2>Next</h2><p>Create the draft to see how many contacts it would reach now, send yourself a test, then send it or schedule it.</p></section>
                )}
              </div>
            )}
            {!editable && (
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
