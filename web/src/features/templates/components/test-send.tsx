import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { submitWith } from '../../../shared/forms.ts';
import { Link } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { sendTestEmail } from '../api.ts';

/** What a test sends: the editor's subject and HTML, from the template's sender. */
export interface TestMessage {
  subject: string;
  html: string;
  from: string | null;
  fromName: string | null;
  replyTo: string | null;
  /** Said under the form: where the HTML comes from. */
  note: string;
}

type SendResult = Awaited<ReturnType<typeof sendTestEmail>>;

/** Sends the template as it is in the editor to one address, "[TEST] " before its subject (POST /v1/send). */
export function TestSend({ message: template, data }: { message: TestMessage; data: Record<string, unknown> }) {
  const api = useApi();
  const [to, setTo] = useState('');
  const [from, setFrom] = useState('');
  const [result, setResult] = useState<SendResult | null>(null);
  const sender = from.trim() || template.from || '';
  const send = useMutation({
    mutationFn: () =>
      sendTestEmail(api, {
        to,
        from: template.fromName ? { name: template.fromName, email: sender } : sender,
        subject: `[TEST] ${template.subject}`,
        body: template.html,
        data,
        ...(template.replyTo ? { reply: template.replyTo } : {}),
      }),
    onSuccess: setResult,
  });
  const submit = submitWith(() => send.mutate());
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="test-send-title">
      <h2 id="test-send-title">Send a test</h2>
      <div className="field">
        <label htmlFor="test-to">To</label>
        <input id="test-to" type="email" required value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      {!template.from && (
        <div className="field">
          <label htmlFor="test-from">From (on a verified domain)</label>
          <input id="test-from" type="email" required value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
      )}
      <p className="hint">{template.note}</p>
      <button type="submit" disabled={send.isPending}>
        Send test
      </button>
      {send.error !== null && <ErrorMessage error={send.error} />}
      {result && (
        <p role="status" className="ok">
          Test {result.emails[0]?.status.toLowerCase() ?? 'sent'}:{' '}
          {result.emails.map((e) => (
            <Link key={e.email} to={`/emails/${e.email}`}>
              view email
            </Link>
          ))}
        </p>
      )}
    </form>
  );
}
