// The overview's calls: counts (the `total` of one-item pages) and the email activity per day.
import type { Api } from '../../shared/api/client.ts';

export async function countProject(api: Api): Promise<{ contacts: number; subscribed: number; domains: number }> {
  const [contacts, subscribed, domains] = await Promise.all([
    api.get('/contacts', { query: { limit: 1 } }),
    api.get('/contacts', { query: { limit: 1, subscribed: 'true' } }),
    api.get('/domains', { query: { limit: 1, status: 'VERIFIED' } }),
  ]);
  return { contacts: contacts.total, subscribed: subscribed.total, domains: domains.total };
}

export const getEmailStats = (api: Api, days: number) => api.get('/emails/stats', { query: { days } });

/** The project's contacts by engagement level (people's opens and clicks only). */
export const getEngagementCounts = (api: Api) => api.get('/contacts/engagement');

/** The steps of a first hour with Herald, each done or not from the project's data. */
export async function getStartedSteps(api: Api) {
  const [settings, domains, emails, contacts, campaigns, webhooks] = await Promise.all([
    api.get('/settings'),
    api.get('/domains', { query: { limit: 1, status: 'VERIFIED' } }),
    api.get('/emails', { query: { limit: 1 } }),
    api.get('/contacts', { query: { limit: 1 } }),
    api.get('/campaigns', { query: { limit: 1 } }),
    api.get('/webhooks', { query: { limit: 1 } }),
  ]);
  return {
    name: settings.name,
    named: settings.name !== DEFAULT_PROJECT_NAME,
    domain: domains.total > 0,
    email: emails.total > 0,
    contacts: contacts.total > 0,
    campaign: campaigns.total > 0,
    webhook: webhooks.total > 0,
  };
}

/** The name a first start gives the project it makes: recipients would read it on the preference centre. */
export const DEFAULT_PROJECT_NAME = 'Default';

/** The project's newest emails, for the overview's recent activity. */
export const listRecentEmails = (api: Api) => api.get('/emails', { query: { limit: 6 } });
