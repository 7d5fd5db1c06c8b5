import { useApi } from '../../../app/session/session-context.tsx';
import type { Campaign } from '../../../shared/api/types.ts';
import { BarChart, METRIC_COLORS, ProgressBar } from '../../../shared/charts/charts.tsx';
import { formatPercent } from '../../../shared/format.ts';
import { useAsync, useInterval } from '../../../shared/hooks/use-async.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { getCampaignStats } from '../api.ts';

/** Live progress of a sending campaign and its stats as a chart; polls while it is SENDING, and once more when it ends. */
export function CampaignProgress({ campaign, onTick }: { campaign: Campaign; onTick: () => void }) {
  const api = useApi();
  const stats = useAsync(() => getCampaignStats(api, campaign.id), [api, campaign.id, campaign.status]);
  const live = campaign.status === 'SENDING';
  useInterval(() => {
    stats.reload();
    onTick();
  }, 1500, live);
  return (
    <section className="panel" aria-labelledby="progress-title">
      <h2 id="progress-title">{live ? 'Sending…' : 'Results'}</h2>
      <AsyncView state={stats}>
        {(s) => (
          <>
            <ProgressBar label="Emails handed to the mail server" value={s.sent + s.failed} max={Math.max(s.recipients, campaign.recipientCount)} />
            <BarChart title="Campaign stats" total={s.recipients} bars={[
              { name: 'Recipients', value: s.recipients, color: '#94a3b8' },
              { name: 'Sent', value: s.sent, color: METRIC_COLORS.sent! },
              { name: 'Delivered', value: s.delivered, color: METRIC_COLORS.delivered! },
              { name: 'Opened', value: s.opened, color: METRIC_COLORS.opened! },
              { name: 'Clicked', value: s.clicked, color: METRIC_COLORS.clicked! },
              { name: 'Bounced', value: s.bounced, color: METRIC_COLORS.bounced! },
              { name: 'Complained', value: s.complained, color: METRIC_COLORS.complained! },
              { name: 'Unsubscribed', value: s.unsubscribed, color: '#0e7490' },
              { name: 'Failed', value: s.failed, color: '#7f1d1d' },
            ]} />
            <dl className="cards small">
              <div><dt>Open rate</dt><dd>{formatPercent(s.openRate)}</dd></div>
              <div><dt>Click rate</dt><dd>{formatPercent(s.clickRate)}</dd></div>
              <div><dt>Bounce rate</dt><dd>{formatPercent(s.bounceRate)}</dd></div>
            </dl>
          </>
        )}
      </AsyncView>
    </section>
  );
}
