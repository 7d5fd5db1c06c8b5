import { Check, Copy, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from '../router.tsx';

/** Copies a value; falls back to a selected textarea where the clipboard API is refused. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    let ok: boolean;
    try {
      await navigator.clipboard.writeText(value);
      ok = true;
    } catch {
      const area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      ok = document.execCommand('copy');
      area.remove();
    }
    setCopied(ok);
    if (ok) window.setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" className="secondary small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      {copied ? <Check className="icon" aria-hidden="true" /> : <Copy className="icon" aria-hidden="true" />}
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </button>
  );
}

/**
 * A destructive action asked twice, inline (no browser dialog); `keepLabel` names the way back ("Cancel" by default),
 * `name` what it acts on for a screen reader when the short label shown leaves it out (one of a table's rows).
 */
export function ConfirmButton({
  label,
  confirmLabel,
  keepLabel,
  onConfirm,
  disabled,
  name,
}: {
  label: string;
  confirmLabel?: string;
  keepLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  name?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" disabled={disabled} aria-label={name} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={`Confirm: ${label}`}>
      <button
        type="button"
        className="danger"
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel ?? `Yes, ${label.toLowerCase()}`}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        {keepLabel ?? 'Cancel'}
      </button>
    </span>
  );
}

// A status's tone: good (done), wait (under way, or waiting for someone: a paused campaign), bad (failed), neutral.
const TONES: Record<string, string> = {
  VERIFIED: 'good',
  SENT: 'good',
  DELIVERED: 'good',
  COMPLETED: 'good',
  SUCCEEDED: 'good',
  ENABLED: 'good',
  SUBSCRIBED: 'good',
  PENDING: 'wait',
  QUEUED: 'wait',
  SENDING: 'wait',
  TESTING: 'wait',
  SCHEDULED: 'wait',
  DEFERRED: 'wait',
  RUNNING: 'wait',
  WAITING: 'wait',
  DRAFT: 'neutral',
  PROCESSING: 'wait',
  PAUSED: 'wait',
  FAILED: 'bad',
  BOUNCED: 'bad',
  COMPLAINED: 'bad',
  TEMPORARY_FAILURE: 'bad',
  SUPPRESSED: 'neutral',
  CANCELLED: 'neutral',
  EXITED: 'neutral',
  DISABLED: 'neutral',
  UNSUBSCRIBED: 'neutral',
  NEVER_SUBSCRIBED: 'neutral',
  REVOKED: 'neutral',
  PASS: 'good',
  FAIL: 'bad',
  SOFTFAIL: 'bad',
  PERMERROR: 'bad',
  TEMPERROR: 'wait',
  HEALTHY: 'good',
  DEGRADED: 'wait',
  DOWN: 'bad',
  OK: 'good',
  THROTTLED: 'wait',
};

export function StatusBadge({ status }: { status: string }) {
  const key = status.toUpperCase();
  return <span className={`badge badge-${TONES[key] ?? 'neutral'}`}>{key.replaceAll('_', ' ')}</span>;
}

// A page's main action (New template, Add endpoint…) is one primary button: filled in the accent colour, with a plus,
// whether it is a link to a create page (NewLink) or a button that shows the create form in place (AddToggle).

/** The header link to a resource's create page: the page's main action. */
export function NewLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="button primary">
      <Plus className="icon" aria-hidden="true" />
      {label}
    </Link>
  );
}

/** The header button that opens and closes a page's "new item" form (pressed while the form shows). */
export function AddToggle({ label, open, onToggle }: { label: string; open: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="primary" aria-expanded={open} onClick={onToggle}>
      <Plus className="icon" aria-hidden="true" />
      {label}
    </button>
  );
}
