/** Every issue the pre-send check can report, by code. */
export const CHECK_CODES = [
  'html_too_large',
  'no_unsubscribe_link',
  'image_without_alt',
  'misleading_link_text',
  'link_domain_blocklisted',
  'blocklist_unknown',
  'url_shortener',
  'images_only',
  'no_plain_text',
  'no_dmarc',
  'tracking_host_unverified',
  'missing_variables',
] as const;

export type CheckCode = (typeof CHECK_CODES)[number];

export type CheckSeverity = 'error' | 'warning' | 'info';

export interface CheckIssue {
  code: CheckCode;
  severity: CheckSeverity;
  message: string;
  fix: string;
}

export interface CheckResult {
  /** 100 with no issue; each error takes 25, each warning 10, each note 2 (never below 0). */
  score: number;
  issues: CheckIssue[];
}
