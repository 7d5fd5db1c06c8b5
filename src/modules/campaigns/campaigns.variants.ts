// A/B tests: which recipients are in the test share and which variant each gets, what a variant's emails
// look like, and which variant wins. Pure functions over the campaign row; the jobs apply them.
import type { CampaignVariant } from '../../db/schema/campaigns.ts';
import type { CampaignCounts } from '../emails/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';

/** Variant ids in order: the API names variants by letter. */
export const VARIANT_IDS = ['A', 'B', 'C', 'D', 'E'] as const;

/** True for a campaign that sends as an A/B test. */
export function isAbTest(campaign: Pick<CampaignRow, 'variants' | 'abTest'>): boolean {
  return (campaign.variants?.length ?? 0) >= 2 && campaign.abTest !== null;
}

/**
 * The campaign as one variant sends it: what the variant leaves out comes from the campaign. The fan-out
 * renders each variant's emails from this row.
 */
export function variantRow(campaign: CampaignRow, index: number): CampaignRow {
  const variant: CampaignVariant | undefined = campaign.variants?.[index];
  if (!variant) return campaign;
  return {
    ...campaign,
    subject: variant.subject ?? campaign.subject,
    body: variant.body ?? campaign.body,
    fromEmail: variant.from ?? campaign.fromEmail,
    fromName: variant.fromName === undefined ? campaign.fromName : variant.fromName,
  };
}

/**
 * Whether the contact at position `position` of the audience walk (0-based, in contact id order) is in the
 * test share, and its variant: the test takes `percent`% of the walk spread evenly along it, and the test's
 * members take the variants in turn, so each variant gets an even share (±1) whatever the audience size.
 * A repeated batch starts at the same position and so decides the same.
 */
export function testVariantAt(position: number, percent: number, variants: number): number | null {
  const before = Math.floor((position * percent) / 100);
  const through = Math.floor(((position + 1) * percent) / 100);
  return through > before ? before % variants : null;
}

/** A variant's rate of the test's metric: people's opens or clicks over the emails handed over. */
export function variantRate(counts: CampaignCounts, metric: 'opens' | 'clicks'): number {
  if (counts.sent === 0) return 0;
  return (metric === 'opens' ? counts.humanOpened : counts.humanClicked) / counts.sent;
}

/** The index of the winning variant: the best human rate, ties to the first. */
export function pickWinner(
  byVariant: Map<number, CampaignCounts>,
  variants: number,
  metric: 'opens' | 'clicks',
): number {
  let best = 0;
  let bestRate = -1;
  for (let index = 0; index < variants; index++) {
    const counts = byVariant.get(index);
    const rate = counts ? variantRate(counts, metric) : 0;
    if (rate > bestRate) {
      best = index;
      bestRate = rate;
    }
  }
  return best;
}

const WAIT = /^([1-9][0-9]{0,6})([smhdw])$/;
const WAIT_UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 } as const;
/** The longest wait of a test: a month (beyond it the test says little about the rest's send anyway). */
export const MAX_WAIT_SECONDS = 30 * 86_400;

/** Seconds of an A/B test's `waitFor` ("30s", "4h", "1d"); null when it is none or longer than 30 days. */
export function waitSeconds(text: string): number | null {
  const match = WAIT.exec(text);
  if (!match) return null;
  const seconds = Number(match[1]) * WAIT_UNIT_SECONDS[match[2] as keyof typeof WAIT_UNIT_SECONDS];
  return seconds <= MAX_WAIT_SECONDS ? seconds : null;
}
