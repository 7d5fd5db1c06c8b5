import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Campaign } from '../../../shared/api/types.ts';
import { formatDateTime, formatDay } from '../../../shared/format.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import {
  cancelCampaign,
  createFollowUp,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  pauseCampaign,
  resumeCampaign,
  unscheduleCampaign,
} from '../api.ts';
import { allows, refreshEvery, waitingForTimeZones } from '../campaign-state.ts';
import { CampaignContent } from '../components/campaign-content.tsx';
import { CampaignEditor } from '../components/campaign-editor.tsx';
import { CampaignPreview } from '../components/campaign-preview.tsx';
import { CampaignProgress } from '../components/campaign-progress.tsx';
import { CampaignSend } from '../components/campaign-send.tsx';
import { TemplateOrigin } from '../../templates/components/template-picker.tsx';

// A campaign not created yet: only its content can be written.
const BLANK: Campaign = {
  id: '',
  name: '',
  description: null,
  subject: '',
  format: 'html',
  content: null,
  translations: null,
  templateId: null,
  templateVersion: null,
  from: '',
  fromName: null,
  replyTo: null,
  type: 'ALL',
  audienceType: 'ALL',
  segmentId: null,
  audienceFilter: null,
  topicId: null,
  ignoreFrequencyCap: false,
  status: 'DRAFT',
  pausedReason: null,
  waitingFor: null,
  variants: null,
  abTest: null,
  testEndsAt: null,
  winnerVariantId: null,
  scheduledAt: null,
  sendAt: null,
  optimize: null,
  sentAt: null,
  allowedActions: ['update'],
  recipientCount: 0,
  createdAt: '',
  updatedAt: '',
  body: '<p>Hi {{ firstName ?? "there" }},</p>\n<p>…</p>\n<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>',
};

/** What a campaign that is sending waits for, when it waits: the warm-up's cap of the day, or a provider's rate. */
const WAITING_FOR: Record<NonNullable<Campaign['waitingFor']>, string> = {
  warmup:
    'Waiting for the domain’s warm-up allowance (next day): today’s cap is reached, the rest goes out from midnight ' +
    'UTC.',
  throttle:
    'Waiting for the provider throttle: a mailbox provider asked to slow down, or the hourly limit to it is reached.',
};

/** A header button that runs one of the page's actions, disabled while it runs. */
function ActionButton({
  onRun,
  busy,
  primary = false,
  children,
}: {
  onRun: () => void;
  busy: boolean;
  primary?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="button" className={primary ? undefined : 'secondary'} onClick={onRun} disabled={busy}>
      {children}
    </button>
  );
}

/**
 * A campaign: edit while its state allows, send/schedule/unschedule/cancel, then live progress, stats and what it
 * sent. The buttons are those its state allows (the server's `allowedActions`) and the role may use.
 */
export function CampaignPage({ id }: { id: string }) {
  const api = useApi();
  const cache = useProjectCache();
  // Viewers read a campaign; every action on it (saving, sending, pausing, deleting…) is an editor's.
  const canEdit = useCan('editor');
  const isNew = id === 'new';
  const state = useProjectQuery(['campaigns', id], (client) => getCampaign(client, id), {
    enabled: !isNew,
    placeholderData: isNew ? BLANK : undefined,
    refetchInterval: (query) => refreshEvery(query.state.data),
  });
  /** After a change: the campaign as the server answered it, when it did, and everything of the campaigns read anew. */
  const changed = (campaign?: Campaign) => {
    if (campaign) cache.set(['campaigns', campaign.id], campaign);
    void cache.invalidate(['campaigns']);
  };
  /** Opens a campaign made from this one (a copy, a follow-up). */
  const opened = (campaign: Campaign) => {
    changed(campaign);
    navigate(`/campaigns/${campaign.id}`);
  };
  const cancel = useMutation({ mutationFn: () => cancelCampaign(api, id), onSuccess: () => changed() });
  const remove = useMutation({
    mutationFn: () => deleteCampaign(api, id),
    onSuccess: () => {
      navigate('/campaigns');
      cache.forget(['campaigns', id]);
      void cache.invalidate(['campaigns']);
    },
  });
  const unschedule = useMutation({ mutationFn: () => unscheduleCampaign(api, id), onSuccess: changed });
  const pause = useMutation({ mutationFn: () => pauseCampaign(api, id), onSuccess: changed });
  const resume = useMutation({ mutationFn: () => resumeCampaign(api, id), onSuccess: changed });
  const followUp = useMutation({
    mutationFn: (audience: 'nonOpeners' | 'nonClickers') => createFollowUp(api, id, audience),
    onSuccess: opened,
  });
  const duplicate = useMutation({ mutationFn: () => duplicateCampaign(api, id), onSuccess: opened });
  return (
    <AsyncView state={state}>
      {(campaign) => {
        const editable = allows(campaign, 'update');
        const waiting = waitingForTimeZones(campaign);
        // Every action on a campaign is an editor's: a viewer reads it.
        const actions = (
          <>
            {allows(campaign, 'unschedule') && (
              <ActionButton onRun={() => unschedule.mutate()} busy={unschedule.isPending}>
                Unschedule
              </ActionButton>
            )}
            {allows(campaign, 'pause') && (
              <ActionButton onRun={() => pause.mutate()} busy={pause.isPending}>
                Pause
              </ActionButton>
            )}
            {allows(campaign, 'resume') && (
              <ActionButton onRun={() => resume.mutate()} busy={resume.isPending} primary>
                Resume
              </ActionButton>
            )}
            {allows(campaign, 'followUp') && (
              <>
                <ActionButton onRun={() => followUp.mutate('nonOpeners')} busy={followUp.isPending}>
                  Follow up non-openers
                </ActionButton>
                <ActionButton onRun={() => followUp.mutate('nonClickers')} busy={followUp.isPending}>
                  Follow up non-clickers
                </ActionButton>
              </>
            )}
            {allows(campaign, 'cancel') && (
              <ConfirmButton
                label="Cancel campaign"
                confirmLabel="Stop sending"
                keepLabel="Keep sending"
                onConfirm={() => cancel.mutate()}
                disabled={cancel.isPending}
              />
            )}
            {campaign.id && allows(campaign, 'duplicate') && (
              <ActionButton onRun={() => duplicate.mutate()} busy={duplicate.isPending}>
                Duplicate
              </ActionButton>
            )}
            {campaign.id && allows(campaign, 'delete') && (
              <ConfirmButton
                label={campaign.status === 'DRAFT' ? 'Delete draft' : 'Delete campaign'}
                keepLabel="Keep it"
                onConfirm={() => remove.mutate()}
                disabled={remove.isPending}
              />
            )}
          </>
        );
        return (
          <>
            <PageHeader
              title={campaign.id ? campaign.name : 'New campaign'}
              back={['/campaigns', 'Campaigns']}
              {...(campaign.id ? { id: { noun: 'Campaign', value: campaign.id } } : {})}
            >
              {campaign.id && (
                <span data-testid="campaign-status">
                  <StatusBadge status={campaign.status} />
                </span>
              )}
              {canEdit && actions}
            </PageHeader>
            {campaign.status === 'PAUSED' && (
              <p role="status" className="notice" data-testid="paused-reason">
                {campaign.pausedReason
                  ? `Paused by the reputation guard: ${campaign.pausedReason}.`
                  : 'Paused: nothing more is sent until you resume it.'}
              </p>
            )}
            {campaign.status === 'SENDING' && campaign.waitingFor && (
              <p role="status" className="notice" data-testid="waiting-for">
                {WAITING_FOR[campaign.waitingFor]}
              </p>
            )}
            {[cancel, remove, unschedule, duplicate, pause, resume, followUp].map(
              (action, i) => action.error !== null && <ErrorMessage key={i} error={action.error} />,
            )}
            {canEdit && campaign.status !== 'DRAFT' && allows(campaign, 'delete') && (
              <p className="hint">Deleting a sent or cancelled campaign keeps its emails in the email log.</p>
            )}
            {waiting && campaign.sendAt && (
              <p role="status" className="notice" data-testid="local-time-waiting">
                Going out at {campaign.sendAt.localTime} on {formatDay(campaign.sendAt.date)} in each recipient’s time
                zone: the emails wait in the queue for their turn.
              </p>
            )}
            {campaign.sentAt && (
              <p className="muted">
                Sending began {formatDateTime(campaign.sentAt)}.{' '}
                <Link to={`/emails?source=${campaign.id}`}>See its emails</Link>.
              </p>
            )}
            {editable && !canEdit && <CampaignContent campaign={campaign} />}
            {editable && canEdit && (
              <div className="editor-layout">
                <CampaignEditor key={campaign.updatedAt || 'new'} campaign={campaign} onSaved={changed} />
                {campaign.id ? (
                  <CampaignSend campaign={campaign} onChanged={changed} />
                ) : (
                  <section className="panel">
                    <h2>Next</h2>
                    <p>
                      Create the draft to see how many contacts it would reach now, send yourself a test, then send it
                      or schedule it.
                    </p>
                  </section>
                )}
              </div>
            )}
            {editable && canEdit && campaign.id && <CampaignPreview campaign={campaign} />}
            {!(editable && canEdit) && campaign.templateId && (
              <TemplateOrigin templateId={campaign.templateId} version={campaign.templateVersion} />
            )}
            {!editable && (
              <div className="editor-layout">
                <CampaignProgress campaign={campaign} onChanged={changed} />
                <CampaignContent campaign={campaign} />
              </div>
            )}
          </>
        );
      }}
    </AsyncView>
  );
}
