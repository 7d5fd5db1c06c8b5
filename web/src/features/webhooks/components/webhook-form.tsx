import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { allOf, type WebhookEventType, type WebhookFormat } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { CopyButton } from '../../../shared/ui/buttons.tsx';
import { breakable } from '../../../shared/ui/long-value.tsx';

/** Resend's event names that Herald never sends (a resend endpoint may subscribe to them; they do not fire). */
type ResendOnlyType =
  | 'email.delivery_delayed'
  | 'contact.topics.updated'
  | `domain.${'created' | 'updated' | 'deleted'}`
  | `suppression.${string}`
  | `topic.${string}`
  | `inbox.${string}`;

/** Herald's event types, offered one by one to a herald endpoint (`*`, every type, has its own box). */
const HERALD_EVENT_TYPES = allOf<Exclude<WebhookEventType, '*' | ResendOnlyType>>()([
  'email.queued',
  'email.sent',
  'email.delivered',
  'email.deferred',
  'email.bounced',
  'email.complained',
  'email.failed',
  'email.opened',
  'email.clicked',
  'email.received',
  'email.scheduled',
  'email.cancelled',
  'email.suppressed',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contact.subscribed',
  'contact.unsubscribed',
  'campaign.sending',
  'campaign.sent',
  'campaign.paused',
  'domain.verified',
  'domain.failed',
  'domain.blocklisted',
  'domain.delisted',
  'transport.down',
  'transport.up',
  'workflow.execution.completed',
  'workflow.execution.failed',
]);

/** The Resend event names Herald sends, offered to a resend endpoint. */
const RESEND_EVENT_TYPES = [
  'email.sent',
  'email.scheduled',
  'email.delivered',
  'email.delivery_delayed',
  'email.bounced',
  'email.complained',
  'email.failed',
  'email.suppressed',
  'email.opened',
  'email.clicked',
  'email.received',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'domain.updated',
] as const satisfies readonly WebhookEventType[];

const EVENT_TYPES_OF: Record<WebhookFormat, readonly WebhookEventType[]> = {
  herald: HERALD_EVENT_TYPES,
  resend: RESEND_EVENT_TYPES,
};

/** The types of `events` an endpoint of `format` takes (those the form offers). */
const typesOf = (events: readonly string[], format: WebhookFormat): WebhookEventType[] =>
  events.filter((type): type is WebhookEventType => type === '*' || EVENT_TYPES_OF[format].some((t) => t === type));

export interface WebhookInput {
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  format: WebhookFormat;
}

/**
 * URL, description, enabled and the event types of an endpoint (`*` = every type), in the names of its format;
 * `chooseFormat`: the format can be chosen (a new endpoint); `readOnly`: no button.
 */
export function WebhookForm({
  initial,
  submitLabel,
  onSubmit,
  chooseFormat = false,
  readOnly = false,
}: {
  initial: Omit<WebhookInput, 'events'> & { events: string[] };
  submitLabel: string;
  onSubmit: (input: WebhookInput) => Promise<void>;
  chooseFormat?: boolean;
  readOnly?: boolean;
}) {
  const [url, setUrl] = useState(initial.url);
  const [description, setDescription] = useState(initial.description ?? '');
  const [format, setFormat] = useState(initial.format);
  // An endpoint answers its types as plain strings; only the types the form offers can be saved back.
  const [events, setEvents] = useState(() => typesOf(initial.events, initial.format));
  const [enabled, setEnabled] = useState(initial.enabled);
  const all = events.includes('*');
  const save = useMutation({
    mutationFn: () => onSubmit({ url, description: description.trim() || null, events, enabled, format }),
  });
  const changeFormat = (next: WebhookFormat) => {
    setFormat(next);
    setEvents((list) => typesOf(list, next));
  };
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((list) => (on ? [...list.filter((t) => t !== type), type] : list.filter((t) => t !== type)));
  const submit = submitWith(() => save.mutate());
  return (
    <form className="panel" onSubmit={submit} aria-label="Webhook endpoint">
      <div className="grid-2">
        <div className="field">
          <label htmlFor="wh-url">Endpoint URL</label>
          <input
            id="wh-url"
            type="url"
            required
            placeholder="https://example.com/hooks/herald"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="wh-description">Description</label>
          <input id="wh-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
      </div>
      {chooseFormat && (
        <div className="field">
          <label htmlFor="wh-format">Format</label>
          <select id="wh-format" value={format} onChange={(e) => changeFormat(e.target.value as WebhookFormat)}>
            <option value="herald">Herald (webhook-* signatures)</option>
            <option value="resend">Resend (Resend&apos;s events and bodies, svix-* signatures)</option>
          </select>
        </div>
      )}
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <fieldset className="event-types">
        <legend>Events to send</legend>
        <label className="check">
          <input type="checkbox" checked={all} onChange={(e) => setEvents(e.target.checked ? ['*'] : [])} /> Every event
          (<code>*</code>)
        </label>
        <div className="checkbox-grid">
          {EVENT_TYPES_OF[format].map((type) => (
            <label key={type} className="check">
              <input
                type="checkbox"
                disabled={all}
                checked={all || events.includes(type)}
                onChange={(e) => toggle(type, e.target.checked)}
              />{' '}
              <code>{breakable(type)}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {!readOnly && (
        <button type="submit" disabled={save.isPending || events.length === 0}>
          {submitLabel}
        </button>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** A signing secret, shown once after it was made. */
export function SecretOnce({ secret, children }: { secret: string; children?: ReactNode }) {
  return (
    <div className="notice secret" role="status">
      <p>
        <strong>Signing secret</strong> — copy it now; it is not shown again. Verify deliveries with it (Standard
        Webhooks, or Resend&apos;s SDK for a resend endpoint).
      </p>
      <p className="copyable">
        <code className="wrap" data-testid="webhook-secret">
          {secret}
        </code>
        <CopyButton value={secret} label="signing secret" />
      </p>
      {children}
    </div>
  );
}

/** Which events and signatures an endpoint gets: Herald's, or Resend's. */
export function FormatBadge({ format }: { format: WebhookFormat }) {
  return (
    <span className={`badge badge-neutral format-${format}`} title={FORMAT_TITLES[format]}>
      {format === 'resend' ? 'Resend' : 'Herald'}
    </span>
  );
}

const FORMAT_TITLES: Record<WebhookFormat, string> = {
  herald: "Herald's events and bodies, webhook-* signatures",
  resend: "Resend's event names and bodies, svix-* signatures",
};
