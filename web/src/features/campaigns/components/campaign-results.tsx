import { useMutation } from '@tanstack/react-query';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { keepPreviousOf, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Campaign, CampaignStats } from '../../../shared/api/types.ts';
import { formatPercent } from '../../../shared/format.ts';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { getCampaignLinks, pickCampaignWinner } from '../api.ts';
import { allows, refreshEvery } from '../campaign-state.ts';

type Variant = NonNullable<CampaignStats['variants']>[number];

/** An A/B test's figures per variant; while its state allows picking a winner, a button to send one to the rest. */
export function VariantResults({
  campaign,
  stats,
  onChanged,
}: {
  campaign: Campaign;
  stats: CampaignStats;
  onChanged: () => void;
}) {
  const api = useApi();
  const canEdit = useCan('editor');
  const pick = useMutation({
    mutationFn: (variantId: string) => pickCampaignWinner(api, campaign.id, variantId),
    onSuccess: () => onChanged(),
  });
  if (!stats.variants) return null;
  const testing = allows(campaign, 'pickWinner') && canEdit;
  return (
    <section aria-label="Variants">
      <h3>Variants</h3>
      {testing && campaign.testEndsAt && (
        <p className="hint">
          The winner by human {campaign.abTest?.metric === 'clicks' ? 'click' : 'open'} rate goes to the rest at{' '}
          {new Date(campaign.testEndsAt).toLocaleString()}, unless you pick one now.
        </p>
      )}
      {/* Seven columns are wider than the page's left column: they scroll inside it rather than spill under the
          preview. */}
      <div className="table-scroll">
        <DataTable<Variant>
          caption="Results per variant"
          rowKey={(v) => v.id}
          rows={stats.variants}
          columns={[
            {
              label: 'Variant',
              render: (v) => (
                <>
                  {v.id}
                  {v.winner && <strong> · winner</strong>}
                </>
              ),
            },
            { label: 'Sent', numeric: true, render: (v) => v.sent },
            { label: 'Opened (people)', numeric: true, render: (v) => `${v.opened} (${v.humanOpened})` },
            { label: 'Clicked (people)', numeric: true, render: (v) => `${v.clicked} (${v.humanClicked})` },
            { label: 'Open rate', numeric: true, render: (v) => formatPercent(v.openRate) },
            { label: 'Click rate', numeric: true, render: (v) => formatPercent(v.clickRate) },
            ...(testing
              ? [
                  {
                    label: 'Winner',
                    render: (v: Variant) => (
                      <button
                        type="button"
                        className="secondary"
                        disabled={pick.isPending}
                        onClick={() => pick.mutate(v.id)}
                      >
                        Send {v.id} to the rest
                      </button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </div>
      {pick.error !== null && <ErrorMessage error={pick.error} />}
    </section>
  );
}

/** The campaign's links by clicks: every click, people's clicks, and the emails that clicked; live like its stats. */
export function CampaignLinks({ campaign }: { campaign: Campaign }) {
  const links = useProjectQuery(
    ['campaigns', campaign.id, 'links', campaign.status],
    (api) => getCampaignLinks(api, campaign.id),
    { placeholderData: keepPreviousOf(campaign.id), refetchInterval: refreshEvery(campaign) },
  );
  return (
    <section aria-label="Links">
      <h3>Links</h3>
      <AsyncView state={links}>
        {(rows) =>
          rows.length === 0 ? (
            <p className="muted">No link clicked yet.</p>
          ) : (
            <DataTable
              caption="Clicks per link"
              rowKey={(l) => l.url}
              rows={rows}
              columns={[
                {
                  label: 'Link',
                  render: (l) => (
                    <a href={l.url} target="_blank" rel="noreferrer noopener">
                      {l.url}
                    </a>
                  ),
                },
                { label: 'Clicks', numeric: true, render: (l) => l.clicks },
                { label: 'By people', numeric: true, render: (l) => l.humanClicks },
                { label: 'Unique', numeric: true, render: (l) => l.uniqueClicks },
              ]}
            />
          )
        }
      </AsyncView>
    </section>
  );
}

type SendTimeGroup = NonNullable<CampaignStats['sendTime']>['optimized'] & { name: string };

/** Send-time optimisation's result: the optimised recipients beside the holdout sent at once, by people's rates. */
export function SendTimeResults({ stats }: { stats: CampaignStats }) {
  if (!stats.sendTime) return null;
  const rows: SendTimeGroup[] = [
    { name: 'Optimised (best hour)', ...stats.sendTime.optimized },
    { name: 'Holdout (at once)', ...stats.sendTime.holdout },
  ];
  return (
    <section aria-label="Send-time optimisation">
      <h3>Send-time optimisation</h3>
      <p className="hint">
        The holdout is a random share sent at once: the difference between the rates is the optimisation’s effect
        (compare once both groups have been sent and read).
      </p>
      <DataTable<SendTimeGroup>
        caption="Results per send-time group"
        rowKey={(g) => g.name}
        rows={rows}
        columns={[
          { label: 'Group', render: (g) => g.name },
          { label: 'Recipients', numeric: true, render: (g) => g.recipients },
          { label: 'Sent', numeric: true, render: (g) => g.sent },
          { label: 'Open rate (people)', numeric: true, render: (g) => formatPercent(g.openRate) },
          { label: 'Click rate (people)', numeric: true, render: (g) => formatPercent(g.clickRate) },
        ]}
      />
    </section>
  );
}
