// The API's resource shapes under the names the pages use: aliases of the generated types (schema.d.ts), so
// they are always what the server's schemas say.
import type { Body, Data } from './operations.ts';
import type { components } from './schema.ts';

type Schemas = components['schemas'];

/**
 * The values of a string union as a list the compiler checks complete: a value the server adds (or drops) and
 * the list does not fails `tsc`, naming the value.
 */
export const allOf =
  <T extends string>() =>
  <const L extends readonly T[]>(
    list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> }),
  ): L =>
    list;

export type JsonObject = Record<string, unknown>;

export type Project = Schemas['Project'];
export type CreatedProject = Data<'/admin/projects', 'post'>;
export type ApiKey = Schemas['ApiKey'];
export type CreatedKey = Data<'/admin/projects/{id}/keys', 'post'>;

export type Contact = Schemas['Contact'];
/** A contact with where it stands: subscribed, unsubscribed (opted out) or never subscribed. */
export type ContactDetail = Schemas['ContactDetail'];
export type ContactImport = Schemas['ContactImport'];
export type ContactBulkAction = Schemas['ContactBulkAction'];
export type EventItem = Schemas['Event'];
export type EventName = Schemas['EventName'];

export type Template = Schemas['Template'];
export type TemplateType = Template['type'];
export type TemplatePreview = Schemas['TemplatePreview'];

export type Domain = Schemas['Domain'];
export type DomainStatus = Domain['status'];
export type DomainRecord = Domain['records'][number];

export type Email = Schemas['Email'];
export type EmailStatus = Email['status'];
export type EmailSource = Schemas['EmailSource'];
export type EmailStats = Schemas['EmailStats'];
export type ActivityMetric = keyof EmailStats['totals'];
export const ACTIVITY_METRICS = allOf<ActivityMetric>()([
  'sent',
  'delivered',
  'opened',
  'clicked',
  'bounced',
  'complained',
]);

export type Filter = Schemas['Filter'];
export type Segment = Schemas['Segment'];
export type Topic = Schemas['Topic'];
export type Form = Schemas['Form'];
export type ContactTopic = Data<'/contacts/{id}/topics', 'get'>[number];
export type ContactConfirmation = Schemas['ContactConfirmation'];

export type Campaign = Schemas['Campaign'];
export type CampaignStatus = Campaign['status'];
export type AudienceType = Campaign['audienceType'];
export type CampaignStats = Schemas['CampaignStats'];

export type Workflow = Schemas['Workflow'];
export type Execution = Schemas['WorkflowExecution'];

export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookFormat = Schemas['Webhook']['format'];
/** An event type an endpoint can subscribe to (`*` = every type). */
export type WebhookEventType = Body<'/webhooks', 'post'>['events'][number];

export type Transport = Data<'/transports'>['items'][number];
export type TransportType = Transport['type'];
export type TransportState = Transport['state'];
export const TRANSPORT_TYPES = allOf<TransportType>()(['smtp', 'ses', 'outbox']);
export type TransportTest = Data<'/transports/{id}/test', 'post'>;

export type Routing = Data<'/routing'>;
export type RoutingRule = Routing['rules'][number];
export type RouteAnswer = Data<'/routing/test', 'post'>;
export type MailStream = NonNullable<RoutingRule['match']['stream']>;
export const MAIL_STREAMS = allOf<MailStream>()(['transactional', 'marketing']);
export type MailboxProvider = NonNullable<RoutingRule['match']['recipientProvider']>;
export const MAILBOX_PROVIDERS = allOf<MailboxProvider>()(['gmail', 'microsoft', 'yahoo', 'apple', 'other']);

export type DomainWarmup = NonNullable<Domain['warmup']>;
export type ProviderThroughput = Data<'/domains/{id}/throughput'>[number];
export type ThroughputHour = Data<'/domains/{id}/throughput/series'>[number];
