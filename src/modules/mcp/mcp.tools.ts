// The MCP tools: each is one call of Herald's own API, made in-process with the caller's key, so validation,
// scopes, tenancy and errors are exactly the API's (no second implementation of anything).
import { z } from 'zod';
import type { KeyScope } from '../../lib/keys.ts';
import { createCampaignBody } from '../campaigns/index.ts';

/** One API request a tool makes. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  body?: unknown;
}

/** What an API call answered: its status and parsed JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Makes one API request with the agent's key. */
export type ApiCall = (request: ApiRequest) => Promise<ApiAnswer>;

export interface ToolSpec {
  name: string;
  description: string;
  /** Restricted keys that see the tool besides full keys (the scopes its API route admits). */
  scopes: KeyScope[];
  input: z.ZodRawShape;
  request(args: Record<string, unknown>): ApiRequest;
}

const id = (what: string) => z.string().min(1).max(100).describe(`The ${what}'s id`);
const limit = z.number().int().min(1).max(100).optional().describe('How many (default 20)');
const q = (params: Record<string, unknown>) => {
  const query = new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return query ? `?${query}` : '';
};
const enc = encodeURIComponent;
const data = z.record(z.string(), z.unknown()).optional().describe('Data fields (a null value deletes a field)');

export const TOOLS: ToolSpec[] = [
  {
    name: 'find_contacts',
    scopes: ['read'],
    description: 'Find contacts by part of their email address (newest first).',
    input: {
      search: z.string().min(1).max(254).optional().describe('Part of the email address'),
      subscribed: z.boolean().optional(),
      limit,
    },
    request: (a) => ({
      method: 'GET',
      url: `/contacts${q({ search: a.search, subscribed: a.subscribed, limit: a.limit ?? 20 })}`,
    }),
  },
  {
    name: 'get_contact',
    scopes: ['read'],
    description: 'A contact by id, with its data and subscription.',
    input: { contactId: id('contact') },
    request: (a) => ({ method: 'GET', url: `/contacts/${enc(String(a.contactId))}` }),
  },
  {
    name: 'upsert_contact',
    scopes: [],
    description: 'Create a contact, or update the one with this email: subscription and data.',
    input: { email: z.string().min(3).max(254).describe('Email address'), subscribed: z.boolean().optional(), data },
    request: (a) => ({ method: 'POST', url: '/contacts', body: a }),
  },
  {
    name: 'list_contact_events',
    scopes: ['read'],
    description: 'The events a contact did, newest first.',
    input: {
      contactId: id('contact'),
      name: z.string().min(1).max(100).optional().describe('Only events of this name'),
      limit,
    },
    request: (a) => ({
      method: 'GET',
      url: `/events${q({ contactId: a.contactId, name: a.name, limit: a.limit ?? 20 })}`,
    }),
  },
  {
    name: 'track_event',
    scopes: ['sending'],
    description: 'Record that a contact did something (creates the contact when new); may start workflows.',
    input: {
      email: z.string().min(3).max(254),
      event: z.string().min(1).max(100).describe('Event name, e.g. signed_up'),
      data,
    },
    request: (a) => ({ method: 'POST', url: '/v1/track', body: a }),
  },
  {
    name: 'send_email',
    scopes: ['sending'],
    description: 'Send one email now: to, from (a verified domain), subject and HTML body, or a template.',
    input: {
      to: z.union([z.string(), z.array(z.string()).max(50)]).describe('Recipient address(es)'),
      from: z.string().optional().describe("Sender; defaults to the template's, else the project's default sender"),
      subject: z.string().max(998).optional(),
      body: z.string().optional().describe('HTML body'),
      template: z.string().optional().describe('A template id instead of subject and body'),
      data,
    },
    request: (a) => ({ method: 'POST', url: '/v1/send', body: a }),
  },
  {
    name: 'get_email',
    scopes: ['read', 'sending'],
    description: "An email's status, recipient, timestamps, opens and clicks.",
    input: { emailId: id('email') },
    request: (a) => ({ method: 'GET', url: `/emails/${enc(String(a.emailId))}` }),
  },
  {
    name: 'verify_email',
    scopes: ['sending'],
    description: 'Check an address: syntax, domain mail servers, disposable or free provider, likely typos.',
    input: { email: z.string().min(1).max(320) },
    request: (a) => ({ method: 'POST', url: '/v1/verify', body: a }),
  },
  {
    name: 'list_templates',
    scopes: ['read'],
    description: "The project's templates.",
    input: { search: z.string().max(100).optional(), limit },
    request: (a) => ({ method: 'GET', url: `/templates${q({ search: a.search, limit: a.limit ?? 20 })}` }),
  },
  {
    name: 'get_template',
    scopes: ['read'],
    description: 'A template with its subject and body.',
    input: { templateId: id('template') },
    request: (a) => ({ method: 'GET', url: `/templates/${enc(String(a.templateId))}` }),
  },
  {
    name: 'create_template',
    scopes: [],
    description: 'Create a template (Liquid: {{ name }}); MARKETING templates get unsubscribe links and tracking.',
    input: {
      name: z.string().min(1).max(200),
      subject: z.string().min(1).max(998),
      body: z.string().min(1).describe('HTML body'),
      type: z.enum(['TRANSACTIONAL', 'MARKETING']).optional(),
      from: z.string().optional().describe('Default sender'),
    },
    request: (a) => ({ method: 'POST', url: '/templates', body: a }),
  },
  {
    name: 'create_segment',
    scopes: [],
    description: "Create a segment: a saved filter over contacts (the API's filter language).",
    input: {
      name: z.string().min(1).max(200),
      filter: z
        .record(z.string(), z.unknown())
        .describe('e.g. {"all": [{"field": "data.plan", "operator": "equals", "value": "pro"}]}'),
    },
    request: (a) => ({ method: 'POST', url: '/segments', body: a }),
  },
  {
    name: 'segment_members',
    scopes: ['read'],
    description: 'How many contacts a segment holds now (total) and the newest of them.',
    input: { segmentId: id('segment'), limit },
    request: (a) => ({
      method: 'GET',
      url: `/segments/${enc(String(a.segmentId))}/contacts${q({ limit: a.limit ?? 20 })}`,
    }),
  },
  {
    name: 'create_campaign',
    scopes: [],
    description:
      'Create a DRAFT campaign (nothing is sent), with every field POST /campaigns takes: the audience (ALL ' +
      'subscribed contacts, a SEGMENT by segmentId, or FILTERED by audienceFilter), from and fromName, replyTo, a ' +
      'topic (topicId), a template to start from, content, an A/B test (variants and abTest) and ignoreFrequencyCap.',
    // The campaigns API's own body: what the dashboard can set, an agent can too, validated by the API alike.
    input: createCampaignBody.shape,
    request: (a) => ({ method: 'POST', url: '/campaigns', body: a }),
  },
  {
    name: 'get_campaign_stats',
    scopes: ['read'],
    description: "A campaign's recipients, sent, delivered, opens, clicks, bounces, complaints and rates.",
    input: { campaignId: id('campaign') },
    request: (a) => ({ method: 'GET', url: `/campaigns/${enc(String(a.campaignId))}/stats` }),
  },
  {
    name: 'list_workflows',
    scopes: ['read'],
    description: "The project's workflows (automations).",
    input: { limit },
    request: (a) => ({ method: 'GET', url: `/workflows${q({ limit: a.limit ?? 20 })}` }),
  },
  {
    name: 'get_workflow_executions',
    scopes: ['read'],
    description: "A workflow's runs, newest first, with their status.",
    input: { workflowId: id('workflow'), limit },
    request: (a) => ({
      method: 'GET',
      url: `/workflows/${enc(String(a.workflowId))}/executions${q({ limit: a.limit ?? 20 })}`,
    }),
  },
  {
    name: 'overview_stats',
    scopes: ['read'],
    description: 'Emails sent, delivered, opened, clicked, bounced and complained per day.',
    input: { days: z.number().int().min(1).max(90).optional().describe('How many days back (default 30)') },
    request: (a) => ({ method: 'GET', url: `/emails/stats${q({ days: a.days ?? 30 })}` }),
  },
];
