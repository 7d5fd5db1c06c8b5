import { useCan } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import type { Campaign } from '../../../shared/api/types.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { MailFrame } from '../../../shared/ui/mail-frame.tsx';
import { getSegmentName, previewCampaignBody } from '../api.ts';

function Audience({ campaign }: { campaign: Campaign }) {
  const segmentId = campaign.audienceType === 'SEGMENT' ? campaign.segmentId : null;
  const segment = useProjectQuery(['segments', segmentId, 'name'], (api) => getSegmentName(api, segmentId!), {
    enabled: segmentId !== null,
  });
  if (campaign.audienceType === 'ALL') return <>All subscribed contacts</>;
  if (campaign.audienceType === 'FILTERED') return <>Contacts matching a filter</>;
  if (!campaign.segmentId) return <>A segment that was deleted</>;
  return (
    <>
      Segment <Link to={`/segments/${campaign.segmentId}`}>{segment.data ?? (segment.error ? 'deleted' : '…')}</Link>
    </>
  );
}

/**
 * What a campaign that can no longer change sent (or was to send): subject, sender, audience, and its body rendered.
 */
export function CampaignContent({ campaign }: { campaign: Campaign }) {
  // Rendering runs the body on the server, an editor's action: a viewer sees it as written.
  const canRender = useCan('editor');
  const preview = useProjectQuery(
    ['campaigns', campaign.id, 'preview', campaign.subject, campaign.body],
    (api) => previewCampaignBody(api, campaign.subject, campaign.body),
    { enabled: canRender },
  );
  return (
    <section className="panel preview" aria-labelledby="campaign-content-title">
      <h2 id="campaign-content-title">Content</h2>
      <dl className="details">
        <dt>Subject</dt>
        <dd data-testid="campaign-subject">{campaign.subject}</dd>
        <dt>From</dt>
        <dd>{campaign.fromName ? `${campaign.fromName} <${campaign.from}>` : campaign.from}</dd>
        {campaign.replyTo && (
          <>
            <dt>Reply-To</dt>
            <dd>{campaign.replyTo}</dd>
          </>
        )}
        <dt>Audience</dt>
        <dd data-testid="campaign-audience">
          <Audience campaign={campaign} />
        </dd>
        {campaign.description && (
          <>
            <dt>Description</dt>
            <dd>{campaign.description}</dd>
          </>
        )}
      </dl>
      {canRender ? (
        <AsyncView state={preview}>{(rendered) => <MailFrame title="Campaign body" html={rendered.html} />}</AsyncView>
      ) : (
        <MailFrame title="Campaign body" html={campaign.body} />
      )}
      <p className="hint">
        {canRender ? 'The body with each variable’s fallback' : 'The body as written, variables unfilled'}; every
        recipient’s copy is in the campaign’s emails.
      </p>
    </section>
  );
}
