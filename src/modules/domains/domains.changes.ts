/**
 * The NOTIFY channel a committed change to a sender domain is announced on (added, deleted, status, lapse, DKIM
 * key), by a trigger on the domains table, so every process hears it whoever made the change.
 */
export const DOMAIN_CHANGES_CHANNEL = 'herald_domains_changed';
