import { keepPreviousOf, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Campaign } from '../../../shared/api/types.ts';
import { BarChart, METRIC_COLORS, ProgressBar } from '../../../shared/charts/charts.tsx';
import { formatPercent } from '../../../shared/format.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { getCampaignStats } from '../api.ts';
import { refreshEvery, waitingForTimeZones } from '../campaign-state.ts';
import { CampaignLinks, SendTimeResults, VariantResults } from './campaign-results.tsx';

/**
 * Live progress of a campaign that went out and its stats as a chart: read again while its mail goes out (or waits
 * for its time zones), and once more with each change of its status.
 */
export function CampaignProgress({ campaign, onChanged }: { campaign: Campaign; onChanged: () => void }) {
  const stats = useProjectQuery(
    ['campaigns', campaign.id, 'stats', campaign.status],
    (api) => getCampaignStats(api, campaign.id),
    { placeholderData: keepPreviousOf(campaign.id), refetchInterval: refreshEvery(campaign) },
  );
  const live = campaign.status === 'SENDING' || campaign.status === 'TESTING';
  // A local-time send under way: SCHEDULED while its emails wait for their time zones, its stats filling meanwhile.
  const waiting = waitingForTimeZones(campaign);
  return (
    <section className="panel" aria-labelledby="progress-title">
      <h2 id="progress-title">
        {campaign.status === 'TESTING'
          ? 'Testing variants…'
          : live
            ? 'Sending…'
            : waiting
              ? 'Sending by time zone…'
              : 'Results'}
      </h2>
      <AsyncView state={stats}>
        {(s) => (
          <>
            <ProgressBar
              label="Emails handed to the mail server"
              value={s.sent + s.failed}
              max={Math.max(s.recipients, campaign.recipientCount)}
            />
            <BarChart
              title="Campaign stats"
              total={s.recipients}
              bars={[
                { name: 'Recipients', value: s.recipients, color: METRIC_COLORS.recipients },
                { name: 'Sent', value: s.sent, color: METRIC_COLORS.sent },
                { name: 'Delivered', value: s.delivered, color: METRIC_COLORS.delivered },
                { name: 'Opened', value: s.opened, color: METRIC_COLORS.opened },
                { name: 'Opened by people', value: s.humanOpened, color: METRIC_COLORS.opened },
                { name: 'Clicked', value: s.clicked, color: METRIC_COLORS.clicked },
                { name: 'Clicked by people', value: s.humanClicked, color: METRIC_COLORS.clicked },
                { name: 'Bounced', value: s.bounced, color: METRIC_COLORS.bounced },
                { name: 'Complained', value: s.complained, color: METRIC_COLORS.complained },
                { name: 'Unsubscribed', value: s.unsubscribed, color: METRIC_COLORS.unsubscribed },
                { name: 'Failed', value: s.failed, color: METRIC_COLORS.failed },
              ]}
            />
            <dl className="cards small">
              <div>
                <dt>Open rate</dt>
                <dd>{formatPercent(s.openRate)}</dd>
              </div>
              <div>
                <dt>Click rate</dt>
                <dd>{formatPercent(s.clickRate)}</dd>
              </div>
              <div>
                <dt>Bounce rate</dt>
                <dd>{formatPercent(s.bounceRate)}</dd>
              </div>
              <div>
                <dt>Complaint rate</dt>
                <dd>{formatPercent(s.complaintRate)}</dd>
              </div>
            </dl>
            <p className="hint" data-testid="machine-figures">
              Rates count people: {s.opened - s.humanOpened} opens and {s.clicked - s.humanClicked} clicks were made by
              machines (Apple's prefetch, link scanners).
            </p>
            {s.localTime && s.localTime.unknownTimeZones > 0 && (
              <p className="hint" data-testid="unknown-time-zones">
                {s.localTime.unknownTimeZones} recipient{s.localTime.unknownTimeZones === 1 ? '' : 's'} had no known
                time zone in their <code>timezone</code> field and got the project’s.
              </p>
            )}
            <VariantResults campaign={campaign} stats={s} onChanged={onChanged} />
            <SendTimeResults stats={s} />
            <CampaignLinks campaign={campaign} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
