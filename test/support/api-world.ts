/**
 * An app with one of everything, for tests that walk the whole API (the fuzz, the response tour): a
 * project with a verified sender domain (through an in-test DNS server), a contact, a template, a
 * segment, a campaign, an import, a tracked email with its link tokens, an email submitted over the SMTP relay, a
 * suppression, a signed-in owner and a member, and a second project (with a key) for the admin routes, so nothing
 * done to it can lock the first one out.
 *
 *   const w = await createApiWorld();
 *   w.pathValue('/contacts/{id}', 'id')  // the id of the seeded contact
 *   await w.close();
 */
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { startInboundReceiver } from '../../src/modules/inbound/index.ts';
import {
  createClickToken,
  createConfirmToken,
  createDownloadToken,
  createOpenToken,
  createUnsubscribeToken,
  createViewToken,
} from '../../src/mail/links.ts';
import { startSubmissionRelay } from '../../src/modules/relay/index.ts';
import { flushRequestLog } from '../../src/modules/logs/index.ts';
import { APP_SECRET, createTestApp, type TestApp } from './app.ts';
import { firstUser, invitedMember, PASSWORD, signIn, type Person } from './people.ts';
import { isAdmin, operationsOf, type OpenApiDocument, type Operation } from './openapi.ts';

/** Operations only a signed-in person may call (keys never act on people). */
const PEOPLE_ONLY = new Set([
  'signOut',
  'getSession',
  'updateMe',
  'setupTwoFactor',
  'enableTwoFactor',
  'disableTwoFactor',
  'listTeam',
  'updateTeamMember',
  'removeTeamMember',
  'listInvites',
  'createInvite',
  'revokeInvite',
]);
import { publishDomainRecords, startDnsServer, type TestDnsServer } from './dns-server.ts';

type Project = Awaited<ReturnType<TestApp['createProject']>>;

export interface ApiWorld {
  t: TestApp;
  dns: TestDnsServer;
  project: Project;
  /** The project the admin routes act on. */
  victim: Project & { keyId: string };
  sender: string;
  ids: {
    list: string;
    topic: string;
    contact: string;
    template: string;
    segment: string;
    campaign: string;
    import: string;
    bulk: string;
    domain: string;
    email: string;
    smtpEmail: string;
    webhook: string;
    delivery: string;
    workflow: string;
    execution: string;
    inbound: string;
    attachment: string;
  };
  suppressed: string;
  tokens: { open: string; click: string; unsubscribe: string; confirm: string; view: string; download: string };
  /** A real value for a path parameter of a path template (a fresh UUID for paths it does not know). */
  pathValue(path: string, param: string): string;
  /** A valid body and query for an operation by operationId (undefined: none known, build one from the schema). */
  validRequest(operationId: string | undefined): { body?: unknown; query?: string } | undefined;
  /**
   * The headers an operation is called with: the project's key, or a fresh dashboard session key where only one will
   * do.
   */
  authFor(operationId: string | undefined): Promise<Record<string, string>>;
  /**
   * A signed-in owner of the project's headers (session cookie, Herald-Project, CSRF token), for routes only people
   * call.
   */
  personHeaders: Record<string, string>;
  close(): Promise<void>;
}

let serial = 0;

/** Requests each known operation accepts (the fuzz mutates them; the tour sends them as they are). */
function validRequests(
  sender: string,
  contactId: string,
  topicId: string,
  listId: string,
): Record<string, { body?: unknown; query?: string }> {
  const n = ++serial;
  return {
    createProject: { body: { name: `Project ${n}` } },
    signIn: { body: { email: 'world-owner@example.com', password: PASSWORD } },
    requestPasswordReset: { body: { email: 'world-owner@example.com' } },
    updateMe: { body: { name: 'World Owner' } },
    createInvite: { body: { email: `invitee${n}@example.com`, role: 'viewer' } },
    updateTeamMember: { body: { role: 'viewer' } },
    adminCreateUser: { body: { email: `made${n}@example.com`, name: 'Made' } },
    adminPasswordLink: { body: { email: 'world-owner@example.com' } },
    listAuditLog: { query: 'action=contact.&limit=5' },
    adminListAuditLog: { query: 'limit=5' },
    listProjects: { query: 'limit=5' },
    updateProject: { body: { name: 'Renamed' } },
    createApiKey: { body: { type: 'public' } },
    createOwnApiKey: { body: { name: `Agent ${n}`, scope: 'read' } },
    listContacts: { query: 'subscribed=true&search=example&limit=5' },
    upsertContact: { body: { email: `person${n}@example.com`, subscribed: true, data: { plan: 'free', visits: n } } },
    updateContact: { body: { subscribed: false, data: { plan: 'pro' } } },
    importContacts: { body: [{ email: `bulk${n}@example.com`, data: { source: 'fuzz' } }] },
    createContactBulkAction: { body: { action: 'setData', contactIds: [contactId], data: { plan: 'pro' } } },
    listEvents: { query: 'name=signed_up&limit=5' },
    listEventNames: { query: 'limit=5' },
    trackEvent: {
      body: {
        email: `visitor${n}@example.com`,
        event: 'signed_up',
        data: { plan: 'pro', ref: { value: 'ad', persistent: false } },
      },
    },
    createDomain: { body: { domain: `d${n}.world.example` } },
    listDomains: { query: 'status=VERIFIED' },
    updateDomain: { body: { receiving: true, trackingHost: 'links.world.example' } },
    listInbound: { query: 'from=ann@example.com&to=support@world.example&search=Help&limit=5' },
    createTemplate: {
      body: {
        name: `Template ${n}`,
        subject: 'Hello {{ name }}',
        body: '<p>Hello {{ name }}</p>',
        type: 'TRANSACTIONAL',
        from: sender,
      },
    },
    listTemplates: { query: 'type=MARKETING&search=Wel' },
    createLayout: { body: { name: `Layout ${n}`, format: 'html', body: '<div>Acme</div>{{ content }}' } },
    updateLayout: { body: { name: `Layout ${n} renamed` } },
    updateTemplate: { body: { subject: 'Hello again' } },
    previewTemplate: {
      body: { subject: 'Hi {{ name }}', body: '<p>Hi {{ name ?? "there" }}</p>', data: { name: 'Ann' } },
    },
    sendEmail: {
      body: {
        to: [{ name: 'Rea', email: `reader${n}@example.com` }],
        from: sender,
        subject: 'Hi',
        body: '<p>Hi</p>',
        data: { a: 1 },
      },
    },
    listEmails: { query: 'status=QUEUED&limit=5' },
    getEmailStats: { query: 'days=7' },
    countSegmentFilter: {
      query: `filter=${encodeURIComponent('{"all":[{"field":"subscribed","operator":"equals","value":true}]}')}`,
    },
    getEmailMetrics: { query: 'groupBy=campaign' },
    listSuppressions: { query: 'reason=MANUAL' },
    addSuppression: { body: { email: `gone${n}@example.com`, detail: 'asked' } },
    verifyEmail: { body: { email: 'ann@example.com' } },
    verifyEmails: { body: { emails: ['ann@example.com', 'not an address'] } },
    createSegment: {
      body: {
        name: `Segment ${n}`,
        filter: {
          all: [
            { field: 'subscribed', operator: 'equals', value: true },
            { field: 'createdAt', operator: 'within', value: '30d' },
          ],
        },
      },
    },
    listSegments: { query: 'limit=5' },
    updateSegment: { body: { description: 'Pro plan' } },
    listSegmentContacts: { query: 'limit=5' },
    exportContacts: { query: 'format=csv&data=json' },
    addSegmentMembers: { body: { emails: ['ann@example.com'], contactIds: [contactId] } },
    removeSegmentMembers: { body: { emails: ['nobody@example.com'] } },
    createTopic: { body: { name: `Topic ${n}`, description: 'News', defaultSubscription: 'OPT_OUT' } },
    listTopics: { query: 'limit=5' },
    updateTopic: { body: { description: 'Monthly news' } },
    updateContactTopics: { body: { topics: [{ id: topicId, subscribed: true }] } },
    subscribe: { body: { email: `signup${n}@example.com`, data: { source: 'form' }, topics: [topicId] } },
    savePreferences: { body: { action: 'save', topic: [topicId] } },
    createForm: {
      body: {
        name: `Form ${n}`,
        fields: [
          { key: 'email', label: 'Email', type: 'email' },
          { key: 'name', label: 'Name', type: 'text' },
        ],
        topicIds: [topicId],
        successMessage: 'Thanks',
      },
    },
    listForms: { query: 'limit=5' },
    updateForm: { body: { name: 'Renamed form', captcha: 'none' } },
    submitForm: { body: { email: `former${n}@example.com`, name: 'Ann' } },
    createCampaign: {
      body: { name: `Campaign ${n}`, subject: 'News', body: '<p>News</p>', from: sender, audienceType: 'ALL' },
    },
    listCampaigns: { query: 'status=DRAFT' },
    updateCampaign: { body: { subject: 'News!' } },
    sendCampaign: { body: { scheduledFor: '2099-01-01T00:00:00Z' } },
    testCampaign: { body: { emails: ['test@example.com'] } },
    pickCampaignWinner: { body: { variantId: 'A' } },
    createFollowUpCampaign: { body: { audience: 'nonOpeners' } },
    createWebhook: {
      body: {
        url: `https://hooks${n}.world.example/in`,
        events: ['email.sent', 'contact.created'],
        description: 'CRM',
      },
    },
    updateWebhook: { body: { description: 'CRM sync', enabled: true } },
    createTransport: {
      body: {
        type: 'smtp',
        name: `Relay ${n}`,
        config: { host: 'relay.world.example', port: 587, username: 'world', password: 'world-relay-password' },
        maxConnections: 2,
      },
    },
    updateTransport: { body: { maxPerSecond: 5 } },
    putRouting: {
      body: { rules: [{ match: { stream: 'marketing' }, transportId: 'default' }], defaultTransportId: 'default' },
    },
    testRouting: { body: { from: sender, to: 'ann@example.com', stream: 'marketing' } },
    listWebhookDeliveries: { query: 'limit=5' },
    createWorkflow: {
      body: {
        name: `Workflow ${n}`,
        enabled: true,
        allowReentry: true,
        trigger: { type: 'EVENT', event: 'signed_up' },
        steps: [{ type: 'DELAY', duration: '1d' }],
      },
    },
    updateWorkflow: { body: { description: 'Welcome series' } },
    listWorkflowExecutions: { query: 'limit=5' },
    startWorkflowExecution: { body: { contactId } },
    resendSendEmail: {
      body: {
        from: `World <${sender}>`,
        to: [`resend${n}@example.com`],
        subject: 'Hi',
        html: '<p>Hi</p>',
        reply_to: 'help@world.example',
        headers: { 'X-Ref': String(n) },
      },
    },
    resendListEmails: { query: 'limit=5' },
    resendCreateApiKey: { body: { name: `Resend key ${n}`, permission: 'sending_access' } },
    resendListApiKeys: { query: 'limit=5' },
    resendListLogs: { query: 'limit=5' },
    resendSendBatch: {
      body: [
        { from: sender, to: `batch${n}@example.com`, subject: 'One', html: '<p>1</p>' },
        { from: sender, to: [`batch${n}b@example.com`], cc: `cc${n}@example.com`, subject: 'Two', text: 'Two' },
      ],
    },
    resendUpdateEmail: { body: { scheduled_at: new Date(Date.now() + 25 * 24 * 3600_000).toISOString() } },
    resendCreateDomain: { body: { name: `r${n}.world.example` } },
    resendListDomains: { query: 'limit=5' },
    resendUpdateDomain: { body: { capabilities: { receiving: 'enabled' } } },
    resendCreateContact: {
      body: { email: `resend-person${n}@example.com`, first_name: 'Rea', last_name: 'Send', unsubscribed: false },
    },
    resendCreateContactInAudience: { body: { email: `audience-person${n}@example.com`, first_name: 'Aud' } },
    resendListContacts: { query: 'limit=5' },
    resendListContactsInAudience: { query: 'limit=5' },
    resendUpdateContact: { body: { first_name: 'Ann', unsubscribed: false } },
    resendUpdateContactInAudience: { body: { last_name: 'Lee' } },
    resendListContactSegments: { query: 'limit=5' },
    resendListContactTopics: { query: 'limit=5' },
    resendUpdateContactTopics: { body: [{ id: topicId, subscription: 'opt_in' }] },
    resendCreateSegment: { body: { name: `Resend list ${n}` } },
    resendListSegments: { query: 'limit=5' },
    resendUpdateSegment: { body: { name: 'Renamed list' } },
    resendListSegmentContacts: { query: 'limit=5' },
    resendCreateTopic: { body: { name: `Resend topic ${n}`, default_subscription: 'opt_in' } },
    resendListTopics: { query: 'limit=5' },
    resendUpdateTopic: { body: { description: 'News about the product' } },
    resendCreateContactProperty: { body: { key: `property${n}`, type: 'string', fallback_value: 'none' } },
    resendListContactProperties: { query: 'limit=5' },
    resendUpdateContactProperty: { body: { fallback_value: 'nothing' } },
    resendCreateBroadcast: {
      body: { segment_id: listId, from: `World <${sender}>`, subject: 'News', html: '<p>News {{{FIRST_NAME}}}</p>' },
    },
    resendListBroadcasts: { query: 'limit=5' },
    resendUpdateBroadcast: { body: { subject: 'Newer', preview_text: 'What is new' } },
    resendSendBroadcast: { body: { scheduled_at: '2099-01-01T00:00:00Z' } },
    resendCreateTemplate: {
      body: {
        name: `Resend template ${n}`,
        html: '<p>Hi {{{PRODUCT}}}</p>',
        variables: [{ key: 'PRODUCT', type: 'string', fallback_value: 'item' }],
      },
    },
    resendListTemplates: { query: 'limit=5' },
    resendUpdateTemplate: { body: { subject: 'Newer {{{PRODUCT}}}' } },
    resendCreateWebhook: { body: { endpoint: `https://rhooks${n}.world.example/in`, events: ['email.sent'] } },
    resendListWebhooks: { query: 'limit=5' },
    resendUpdateWebhook: { body: { status: 'enabled' } },
    resendListWebhookEvents: { query: 'limit=5' },
    resendEmailMetrics: { query: 'dimensions=period' },
  };
}

const NO_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '100000000',
  PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
  PUBLIC_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '100000000',
  LINK_RATE_LIMIT_PER_MINUTE: '100000000',
};

/** `worker`: run the job workers too (the outbox transport then writes every message). */
export async function createApiWorld(
  options: { worker?: boolean; register?: (app: FastifyInstance) => Promise<void> | void } = {},
): Promise<ApiWorld> {
  const dns = await startDnsServer({});
  const t = await createTestApp({
    worker: options.worker ?? false,
    ...(options.register ? { register: options.register } : {}),
    env: {
      DNS_SERVERS: dns.address,
      PUBLIC_URL: 'https://mail.herald.test',
      SEND_RATE_PER_SECOND: '0',
      // Receiving is turned on only where an inbound listener is configured (any free port).
      INBOUND_SMTP_PORT: '0',
      ...NO_LIMITS,
    },
  });
  const project = await t.createProject('World');
  const victimProject = await t.createProject('Admin target');
  const call = async (method: 'POST' | 'GET' | 'PATCH', url: string, payload?: unknown, headers = project.auth) => {
    const res = await t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (res.statusCode >= 300) throw new Error(`world setup: ${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json().data as Record<string, unknown>;
  };

  const key = await call('POST', `/admin/projects/${victimProject.id}/keys`, { type: 'public' }, t.admin);
  const domain = await call('POST', '/domains', { domain: 'world.example' });
  publishDomainRecords(dns, domain.records as { type: string; name: string; value: string; values?: string[] }[]);
  await call('POST', `/domains/${String(domain.id)}/verify`);
  const sender = 'news@world.example';
  const contact = await call('POST', '/contacts', { email: 'ann@example.com', data: { plan: 'pro' } });
  const template = await call('POST', '/templates', {
    name: 'Welcome',
    subject: 'Hi {{ name }}',
    body: '<p>Hi <a href="https://example.com/x">x</a></p>',
    type: 'MARKETING',
    from: sender,
  });
  // A template with a draft (to publish), and a layout.
  const drafted = await call('POST', '/templates', {
    name: 'Drafted',
    subject: 'Hi',
    body: '<p>Hi</p>',
    type: 'TRANSACTIONAL',
  });
  await call('PATCH', `/templates/${String(drafted.id)}`, { subject: 'Hi again', publish: false });
  const layout = await call('POST', '/layouts', { name: 'Frame', format: 'html', body: '<div>A</div>{{ content }}' });
  const segment = await call('POST', '/segments', {
    name: 'Pros',
    filter: { field: 'data.plan', operator: 'equals', value: 'pro' },
  });
  const list = await call('POST', '/segments', { name: 'Beta list', type: 'STATIC', trackMembership: true });
  const topic = await call('POST', '/topics', { name: 'Product news', defaultSubscription: 'OPT_IN' });
  const form = await call('POST', '/forms', {
    name: 'Newsletter',
    fields: [
      { key: 'email', label: 'Email', type: 'email' },
      { key: 'name', label: 'Name', type: 'text' },
    ],
    topicIds: [topic.id],
    segmentId: list.id,
  });
  // A form with proof of work, for its challenges.
  const powForm = await call('POST', '/forms', {
    name: 'Guarded',
    fields: [{ key: 'email', label: 'Email', type: 'email' }],
    captcha: 'pow',
  });
  const campaign = await call('POST', '/campaigns', {
    name: 'Launch',
    subject: 'Launch',
    body: '<p>New <a href="https://example.com/l">here</a></p>',
    from: sender,
    audienceType: 'SEGMENT',
    segmentId: segment.id,
  });
  // A second campaign, scheduled, for unschedule (the first is sent, then cancelled, by the tour).
  const scheduled = await call('POST', '/campaigns', {
    name: 'Later',
    subject: 'Later',
    body: '<p>Later</p>',
    from: sender,
    audienceType: 'ALL',
  });
  await t.app.inject({
    method: 'POST',
    url: `/campaigns/${String(scheduled.id)}/send`,
    headers: project.auth,
    payload: { scheduledFor: '2099-01-01T00:00:00Z' },
  });
  // A/B tests waiting for their winner (TESTING): one to pause, one to pick a winner of, and one paused to resume.
  const testing = async () => {
    const ab = await call('POST', '/campaigns', {
      name: 'Test',
      subject: 'Test',
      body: '<p>Test</p>',
      from: sender,
      audienceType: 'ALL',
      variants: [{}, { subject: 'B' }],
      abTest: { testPercent: 10, metric: 'opens', waitFor: '1d' },
    });
    await t.app.inject({ method: 'POST', url: `/campaigns/${String(ab.id)}/send`, headers: project.auth });
    return String(ab.id);
  };
  const [toPause, toPick, toResume] = [await testing(), await testing(), await testing()];
  // Drafts for the Resend broadcast routes: one to read, change and copy, one to schedule and cancel.
  const broadcast = async () =>
    String(
      (
        await call('POST', '/campaigns', {
          name: 'Broadcast',
          subject: 'Broadcast',
          body: '<p>Broadcast</p>',
          from: sender,
          audienceType: 'SEGMENT',
          segmentId: list.id,
        })
      ).id,
    );
  const [draftBroadcast, scheduledBroadcast] = [await broadcast(), await broadcast()];
  const property = await t.app.inject({
    method: 'POST',
    url: '/resend/contact-properties',
    headers: project.auth,
    payload: { key: 'company', type: 'string', fallback_value: 'your company' },
  });
  const propertyId = String((property.json() as { id: string }).id);
  await t.app.inject({ method: 'POST', url: `/campaigns/${toResume}/pause`, headers: project.auth });
  const imported = await call('POST', '/contacts/import', [{ email: 'imported@example.com' }]);
  const bulk = await call('POST', '/contacts/bulk', { action: 'subscribe', contactIds: [contact.id] });
  const sent = await call('POST', '/v1/send', {
    to: 'ann@example.com',
    from: sender,
    subject: 'Links',
    body: '<p><a href="https://example.com/a">a</a></p>',
    tracking: true,
    attachments: [{ filename: 'notes.txt', content: Buffer.from('notes').toString('base64') }],
  });
  const emailId = (sent.emails as { email: string }[])[0]!.email;
  // Scheduled emails, for rescheduling and cancelling (one for Herald's routes, one for Resend's).
  const later = new Date(Date.now() + 20 * 24 * 3600_000).toISOString();
  const scheduledEmails = await Promise.all(
    [1, 2].map(async (i) => {
      const answer = await call('POST', '/v1/send', {
        to: `later${i}@example.com`,
        from: sender,
        subject: 'Later',
        body: '<p>Later</p>',
        scheduledAt: later,
      });
      return (answer.emails as { email: string }[])[0]!.email;
    }),
  );
  const relay = await startSubmissionRelay(t.ctx, 0);
  const submitted = await nodemailer
    .createTransport({
      host: '127.0.0.1',
      port: relay.port,
      secure: false,
      ignoreTLS: true,
      auth: { user: 'herald', pass: project.secretKey },
    })
    .sendMail({
      from: `"World app" <${sender}>`,
      to: 'ann@example.com',
      subject: 'Over SMTP',
      text: 'Sent through the relay',
      html: '<p>Sent through the relay</p>',
    });
  const smtpEmailId = /queued as ([0-9a-f-]{36})$/.exec(submitted.response)?.[1];
  if (!smtpEmailId) throw new Error(`world setup: the relay answered ${submitted.response}`);
  const suppressed = 'blocked@example.com';
  await call('POST', '/suppressions', { email: suppressed });
  const webhook = await call('POST', '/webhooks', { url: 'https://hooks.world.example/in', events: ['*'] });
  const delivery = await call('POST', `/webhooks/${String(webhook.id)}/test`);
  // A transport of the project (an outbox: its connection test passes without a network).
  const transport = await call('POST', '/transports', { type: 'outbox', name: 'World files' });
  const workflow = await call('POST', '/workflows', {
    name: 'Onboarding',
    enabled: true,
    allowReentry: true,
    trigger: { type: 'MANUAL' },
    steps: [{ type: 'DELAY', duration: '7d' }],
  });
  const execution = await call('POST', `/workflows/${String(workflow.id)}/executions`, { contactId: contact.id });
  // A received message with an attachment, through a real listener.
  await call('PATCH', `/domains/${String(domain.id)}`, { receiving: true });
  const listener = await startInboundReceiver(t.ctx, 0);
  await nodemailer
    .createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
    .sendMail({
      from: 'ann@example.com',
      to: 'support@world.example',
      subject: 'Help',
      text: 'Hi',
      attachments: [{ filename: 'a.txt', content: 'a' }],
    });
  await listener.close();
  const inbound = ((await call('GET', '/inbound')).items as { id: string; attachments: { id: string }[] }[])[0]!;

  const ids = {
    contact: String(contact.id),
    template: String(template.id),
    segment: String(segment.id),
    campaign: String(campaign.id),
    import: String(imported.id),
    bulk: String(bulk.id),
    domain: String(domain.id),
    email: emailId,
    smtpEmail: smtpEmailId,
    webhook: String(webhook.id),
    delivery: String(delivery.id),
    workflow: String(workflow.id),
    execution: String(execution.id),
    inbound: inbound.id,
    attachment: inbound.attachments[0]!.id,
    list: String(list.id),
    topic: String(topic.id),
  };
  const tokens = {
    open: createOpenToken(APP_SECRET, emailId),
    click: createClickToken(APP_SECRET, emailId, 0),
    unsubscribe: createUnsubscribeToken(APP_SECRET, { projectId: project.id, contactId: ids.contact, emailId }),
    confirm: createConfirmToken(APP_SECRET, { projectId: project.id, contactId: ids.contact }),
    view: createViewToken(APP_SECRET, { emailId }),
    download: createDownloadToken(APP_SECRET, {
      projectId: project.id,
      kind: 'email-attachment',
      recordId: emailId,
      fileId: '0',
      expiresAt: new Date(Date.now() + 3600_000),
    }),
  };
  const owner = await firstUser(t, 'world-owner@example.com');
  const member = await invitedMember(t, owner, project.id, 'world-member@example.com', 'editor');
  const memberId = String(
    ((await member.call('GET', '/auth/session')).json() as { data: { user: { id: string } } }).data.user.id,
  );
  const headersOf = (person: Person) => ({
    cookie: person.cookie!,
    'herald-project': project.id,
    'x-csrf-token': person.csrfToken!,
  });
  const personHeaders = headersOf(owner);
  const invite = await owner.call('POST', '/team/invites', {
    project: project.id,
    payload: { email: 'world-invitee@example.com', role: 'viewer' },
  });
  const inviteId = String((invite.json() as { data: { id: string } }).data.id);
  const made = await t.app.inject({
    method: 'POST',
    url: '/admin/users',
    headers: t.admin,
    payload: { email: 'world-made@example.com' },
  });
  const madeUserId = String((made.json() as { data: { user: { id: string } } }).data.user.id);
  // One request of the world's, from the request log (written once this process's waiting entries are flushed).
  await flushRequestLog(t.ctx);
  const logged = await t.app.inject({ method: 'GET', url: '/logs?limit=1', headers: project.auth });
  const logEntryId = String((logged.json() as { data: { items: { id: string }[] } }).data.items[0]!.id);
  const byPrefix: [RegExp, string][] = [
    [/^\/logs\/\{id\}/, logEntryId],
    [/^\/admin\/users\/\{id\}/, madeUserId],
    [/^\/team\/invites\/\{id\}/, inviteId],
    [/^\/team\/\{userId\}/, memberId],
    [/^\/admin\/projects\/\{id\}/, victimProject.id],
    [/^\/contacts\/import\/\{id\}/, ids.import],
    [/^\/contacts\/bulk\/\{id\}/, ids.bulk],
    [/^\/contacts\/\{id\}/, ids.contact],
    [/^\/domains\/\{id\}/, ids.domain],
    [/^\/templates\/\{id\}\/publish$/, String(drafted.id)],
    [/^\/templates\/\{id\}/, ids.template],
    [/^\/layouts\/\{id\}/, String(layout.id)],
    [/^\/segments\/\{id\}\/members$/, ids.list],
    [/^\/segments\/\{id\}/, ids.segment],
    [/^\/topics\/\{id\}/, ids.topic],
    [/^\/forms\/\{id\}/, String(form.id)],
    [/^\/f-assets\//, 'widget.js'],
    [/^\/f\/\{id\}\/challenge$/, String(powForm.id)],
    [/^\/f\/\{id\}/, String(form.id)],
    [/^\/campaigns\/\{id\}\/unschedule$/, String(scheduled.id)],
    [/^\/campaigns\/\{id\}\/pause$/, toPause],
    [/^\/campaigns\/\{id\}\/winner$/, toPick],
    [/^\/campaigns\/\{id\}\/resume$/, toResume],
    [/^\/campaigns\/\{id\}/, ids.campaign],
    [/^\/emails\/\{id\}(\/cancel)?$/, scheduledEmails[0]!],
    [/^\/emails\/\{id\}/, ids.email],
    [/^\/webhooks\/\{id\}/, ids.webhook],
    [/^\/transports\/\{id\}/, String(transport.id)],
    [/^\/workflows\/\{id\}/, ids.workflow],
    [/^\/inbound\/\{id\}/, ids.inbound],
    [/^\/resend\/emails\/receiving\/\{id\}/, ids.inbound],
    [/^\/resend\/downloads\//, tokens.download],
    [/^\/resend\/logs\/\{id\}/, logEntryId],
    [/^\/resend\/emails\/\{id\}(\/cancel)?$/, scheduledEmails[1]!],
    [/^\/resend\/emails\/\{id\}/, emailId],
    [/^\/resend\/domains\/\{id\}/, ids.domain],
    [/^\/resend\/(audiences\/\{audienceId\}\/)?contacts\/\{id\}/, ids.contact],
    [/^\/resend\/segments\/\{id\}/, ids.list],
    [/^\/resend\/topics\/\{id\}/, ids.topic],
    [/^\/resend\/contact-properties\/\{id\}/, propertyId],
    [/^\/resend\/broadcasts\/\{id\}\/(send|cancel)$/, scheduledBroadcast],
    [/^\/resend\/broadcasts\/\{id\}/, draftBroadcast],
    [/^\/resend\/templates\/\{id\}/, ids.template],
    [/^\/resend\/webhooks\/\{id\}/, ids.webhook],
    [/^\/t\/o\//, tokens.open],
    [/^\/t\/c\//, tokens.click],
    [/^\/unsubscribe\//, tokens.unsubscribe],
    [/^\/manage\//, tokens.unsubscribe],
    [/^\/confirm\//, tokens.confirm],
    [/^\/v\//, tokens.view],
  ];

  return {
    t,
    dns,
    project,
    victim: { ...victimProject, keyId: String(key.id) },
    sender,
    ids,
    suppressed,
    tokens,
    personHeaders,
    validRequest(operationId) {
      return operationId ? validRequests(sender, ids.contact, ids.topic, ids.list)[operationId] : undefined;
    },
    async authFor(operationId) {
      // Signing out ends a session of its own, so the world's stays.
      if (operationId === 'signOut') return headersOf(await signIn(t, 'world-owner@example.com'));
      if (operationId && PEOPLE_ONLY.has(operationId)) return personHeaders;
      if (operationId !== 'revokeCurrentSessionKey') return project.auth;
      const session = await call(
        'POST',
        `/admin/projects/${project.id}/keys`,
        { type: 'secret', session: true },
        t.admin,
      );
      return { authorization: `Bearer ${String(session.key)}` };
    },
    pathValue(path, param) {
      if (param === 'version') return '1';
      if (param === 'keyId') return String(key.id);
      if (param === 'deliveryId' || param === 'eventId') return ids.delivery;
      if (param === 'executionId') return ids.execution;
      // A sent email's attachments are numbered by their place; a received message's have ids.
      if (param === 'attachmentId') return path.startsWith('/resend/emails/{id}/') ? '0' : ids.attachment;
      if (param === 'segmentId') return ids.list;
      if (param === 'email') return suppressed;
      return byPrefix.find(([pattern]) => pattern.test(path))?.[1] ?? crypto.randomUUID();
    },
    async close() {
      await relay.close();
      await t.close();
      await dns.close();
    },
  };
}

/**
 * The id a DELETE of `op` acts on: a resource made for it from the collection's POST, so the world keeps its own
 * (empty when there is no such POST: a DELETE of a sub-collection acts on the resource the world made).
 */
export async function freshIdFor(w: ApiWorld, doc: OpenApiDocument, op: Operation): Promise<Record<string, string>> {
  if (!/\}$/.test(op.path)) return {};
  const collection = op.path.replace(/\/\{[^}]+\}$/, '');
  const create = operationsOf(doc).find((o) => o.method === 'POST' && o.path === collection);
  if (!create) return {};
  const url = collection.replace(/\{([^}]+)\}/g, (_, p: string) => w.pathValue(collection, p));
  const headers = isAdmin(op) ? w.t.admin : await w.authFor(create.operationId);
  const res = await w.t.app.inject({
    method: 'POST',
    url,
    headers,
    payload: w.validRequest(create.operationId)?.body as Record<string, unknown>,
  });
  // Herald answers {success, data}; Resend's API under /resend answers the resource itself.
  const body = res.json() as { data?: unknown };
  const data = ((collection.startsWith('/resend/') ? body : body.data) ?? {}) as { id?: string; email?: string };
  const param = /\{([^}]+)\}$/.exec(op.path)![1]!;
  const value = param === 'email' ? data.email : data.id;
  return value ? { [param]: value } : {};
}
