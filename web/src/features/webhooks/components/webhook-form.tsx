import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { allOf, type WebhookEventType } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { CopyButton } from '../../../shared/ui/buttons.tsx';
import { breakable } from '../../../shared/ui/long-value.tsx';

/** The event types offered one by one (`*`, every type, has its own box). */
const EVENT_TYPES = allOf<Exclude<WebhookEventType, '*'>>()([
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

const isEventType = (type: string): type is WebhookEventType =>
  type === '*' || (EVENT_TYPES as readonly string[]).includes(type);

export interface WebhookInput {
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
}

/** URL, description, enabled and the event types of an endpoint (`*` = every type); `readOnly`: no button. */
export function WebhookForm({
  initial,
  submitLabel,
  onSubmit,
  readOnly = false,
}: {
  initial: Omit<WebhookInput, 'events'> & { events: string[] };
  submitLabel: string;
  onSubmit: (input: WebhookInput) => Promise<void>;
  readOnly?: boolean;
}) {
  const [url, setUrl] = useState(initial.url);
  const [description, setDescription] = useState(initial.description ?? '');
  // An endpoint answers its types as plain strings; only the types the API takes can be saved back.
  const [events, setEvents] = useState(() => initial.events.filter(isEventType));
  const [enabled, setEnabled] = useState(initial.enabled);
  const all = events.includes('*');
  const save = useMutation({
    mutationFn: () => onSubmit({ url, description: description.trim() || null, events, enabled }),
  });
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
          {EVENT_TYPES.map((type) => (
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
        Webhooks).
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
