import { SOCIAL_NETWORKS, type SocialBlock, type SocialNetwork } from '../../model/blocks.ts';
import { FieldProblem } from '../field-errors.tsx';
import { SelectField, TextField } from './block-fields.tsx';

const NETWORK_NAMES: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  x: 'X',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  github: 'GitHub',
  tiktok: 'TikTok',
  mastodon: 'Mastodon',
  website: 'Website',
};

const OPTIONS = SOCIAL_NETWORKS.map((n) => [n, NETWORK_NAMES[n]] as const);

/** The links of a social block (1–10): each a network and its URL. */
export function SocialLinks({
  block,
  path,
  onChange,
}: {
  block: SocialBlock;
  path: string;
  onChange: (links: SocialBlock['links'], field: string) => void;
}) {
  const links = block.links;
  const set = (i: number, change: Partial<SocialBlock['links'][number]>, field: string) =>
    onChange(
      links.map((l, j) => (i === j ? { ...l, ...change } : l)),
      `links.${i}.${field}`,
    );
  return (
    <fieldset className="social-links">
      <legend>Links</legend>
      <FieldProblem path={`${path}.links`} id={`${block.id}-links-problem`} />
      {links.map((link, i) => (
        <div key={i} className="social-link" role="group" aria-label={`Link ${i + 1}`}>
          <SelectField
            label={`Network ${i + 1}`}
            path={`${path}.links[${i}].network`}
            value={link.network}
            options={OPTIONS}
            onChange={(network) => set(i, { network }, 'network')}
          />
          <TextField
            label={`URL ${i + 1}`}
            type="url"
            path={`${path}.links[${i}].url`}
            value={link.url}
            onChange={(url) => set(i, { url }, 'url')}
          />
          <button
            type="button"
            className="danger small"
            disabled={links.length === 1}
            aria-label={`Remove link ${i + 1}`}
            onClick={() =>
              onChange(
                links.filter((_, j) => j !== i),
                'links',
              )
            }
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary small"
        disabled={links.length >= 10}
        onClick={() => onChange([...links, { network: 'website', url: 'https://' }], 'links')}
      >
        Add link
      </button>
    </fieldset>
  );
}
