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
