// The API's resource shapes, as CONTRACT §2–§12 and the server's zod schemas give them.

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = Record<string, unknown>;

export interface Project { id: string; name: string; disabled: boolean; createdAt: string; updatedAt: string }
export interface CreatedProject extends Project { secretKey: string; publicKey: string }
export interface ApiKey { id: string; type: 'secret' | 'public'; prefix: string; createdAt: string; revokedAt: string | null }
export interface CreatedKey { id: string; type: 'secret' | 'public'; key: string; createdAt: string }

export interface Contact { id: string; email: string; subscribed: boolean; data: JsonObject; createdAt: string; updatedAt: string }
export interface ContactImport {
  id: string; status: 'queued' | 'processing' | 'completed' | 'failed'; format: 'csv' | 'json';
  total: number; processed: number; created: number; updated: number; rejected: number;
  errors: { row: number; email?: string; reason: string }[]; failure: string | null;
  createdAt: string; updatedAt: string; finishedAt: string | null;
}
export interface EventItem { id: string; name: string; contactId: string; data: JsonObject; createdAt: string }
export interface EventName { name: string; count: number; lastSeenAt: string }

export type TemplateType = 'TRANSACTIONAL' | 'MARKETING';
export interface Template {
  id: string; name: string; subject: string; body: string; type: TemplateType;
  from: string | null; fromName: string | null; replyTo: string | null; createdAt: string; updatedAt: string;
}
export interface TemplatePreview { subject: string; html: string; text: string }

export type DomainStatus = 'PENDING' | 'VERIFIED' | 'FAILED' | 'TEMPORARY_FAILURE';
export interface DomainRecord {
  purpose: 'DKIM' | 'SPF' | 'DMARC' | 'RETURN_PATH'; type: string; name: string; value: string; values?: string[];
  required: boolean; status: 'PENDING' | 'VERIFIED' | 'FAILED';
}
export interface Domain {
  id: string; domain: string; status: DomainStatus; records: DomainRecord[];
  createdAt: string; updatedAt: string; verifiedAt: string | null; lastCheckedAt: string | null;
}

export type EmailStatus = 'QUEUED' | 'SENDING' | 'SENT' | 'DELIVERED' | 'DEFERRED' | 'BOUNCED' | 'COMPLAINED' | 'FAILED' | 'SUPPRESSED' | 'CANCELLED';
export interface Email {
  id: string; to: string; from: string; subject: string; status: EmailStatus; statusReason: string | null;
  source: { type: 'TRANSACTIONAL' | 'CAMPAIGN' | 'WORKFLOW' | 'TEST'; id: string | null };
  contactId: string | null; messageId: string; attempts: number; lastError: string | null;
  sentAt: string | null; openedAt: string | null; clickedAt: string | null; opens: number; clicks: number; createdAt: string;
}
export interface EmailSource { id: string; source: string }
export const ACTIVITY_METRICS = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type ActivityMetric = (typeof ACTIVITY_METRICS)[number];
export type DailyCounts = { date: string } & Record<ActivityMetric, number>;
export interface EmailStats { from: string; to: string; days: DailyCounts[]; totals: Record<ActivityMetric, number> }

export type Filter = JsonObject;
export interface Segment { id: string; name: string; description: string | null; filter: Filter; memberCount: number; createdAt: string; updatedAt: string }

export type CampaignStatus = 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
export type AudienceType = 'ALL' | 'SEGMENT' | 'FILTERED';
export interface Campaign {
  id: string; name: string; description: string | null; subject: string; body: string; from: string;
  fromName: string | null; replyTo: string | null; audienceType: AudienceType; segmentId: string | null;
  audienceFilter: Filter | null; status: CampaignStatus; scheduledAt: string | null; sentAt: string | null;
  recipientCount: number; createdAt: string; updatedAt: string;
}
export interface CampaignStats {
  recipients: number; sent: number; delivered: number; opened: number; clicked: number; bounced: number;
  complained: number; unsubscribed: number; failed: number; openRate: number; clickRate: number; bounceRate: number;
}

export type Step =
  | { id?: string; type: 'SEND_EMAIL'; templateId: string; data?: JsonObject }
  | { id?: string; type: 'DELAY'; duration: string }
  | { id?: string; type: 'WAIT_FOR_EVENT'; event: string; timeout: string; onEvent?: Step[]; onTimeout?: Step[] }
  | { id?: string; type: 'CONDITION'; if: Filter; then: Step[]; else?: Step[] }
  | { id?: string; type: 'UPDATE_CONTACT'; data?: JsonObject; subscribed?: boolean }
  | { id?: string; type: 'WEBHOOK'; url: string; method?: string; headers?: Record<string, string>; body?: JsonObject }
  | { id?: string; type: 'EXIT' };
export type StepType = Step['type'];
export type Trigger = { type: 'EVENT'; event: string } | { type: 'MANUAL' };
export interface Workflow {
  id: string; name: string; description: string | null; enabled: boolean; allowReentry: boolean;
  trigger: Trigger; steps: Step[]; createdAt: string; updatedAt: string;
}
export type ExecutionStatus = 'RUNNING' | 'WAITING' | 'COMPLETED' | 'EXITED' | 'FAILED' | 'CANCELLED';
export interface Execution {
  id: string; workflowId: string; contactId: string; status: ExecutionStatus; currentStepId: string | null;
  history: { stepId: string; type: string; status: string; at: string; error?: string }[];
  startedAt: string; finishedAt: string | null;
}

export interface Webhook {
  id: string; url: string; events: string[]; description: string | null; enabled: boolean;
  disabledReason?: string | null; createdAt: string; updatedAt: string;
}
export interface WebhookWithSecret extends Webhook { secret: string }
export interface WebhookDelivery {
  id: string; eventType: string; status: 'PENDING' | 'SUCCEEDED' | 'FAILED'; attempts: number;
  responseStatus: number | null; lastError: string | null; nextAttemptAt: string | null; createdAt: string;
}
export const WEBHOOK_EVENT_TYPES = [
  'email.queued', 'email.sent', 'email.delivered', 'email.deferred', 'email.bounced', 'email.complained', 'email.failed',
  'email.opened', 'email.clicked', 'contact.created', 'contact.updated', 'contact.deleted', 'contact.subscribed',
  'contact.unsubscribed', 'campaign.sending', 'campaign.sent', 'workflow.execution.completed', 'workflow.execution.failed',
] as const;
