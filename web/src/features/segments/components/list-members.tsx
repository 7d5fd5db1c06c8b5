import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import type { Segment } from '../../../shared/api/types.ts';
import { submitWith, useAction } from '../../../shared/hooks/use-action.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { addListMembers } from '../api.ts';

/** Paste addresses (one per line, or separated by commas or spaces) to add them to a list, 1,000 at a time. */
export function AddListMembers({ segment, onChanged }: { segment: Segment; onChanged: () => void }) {
  const api = useApi();
  const [text, setText] = useState('');
  const [createMissing, setCreateMissing] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const add = useAction(async () => {
    const emails = [...new Set(text.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean))];
    let added = 0;
    let already = 0;
    const missing: string[] = [];
    for (let i = 0; i < emails.length; i += 1000) {
      const answer = await addListMembers(api, segment.id, { emails: emails.slice(i, i + 1000), createMissing });
      added += answer.added;
      already += answer.alreadyMembers;
      missing.push(...answer.missing);
    }
    setResult(`${added} added, ${already} already members${missing.length ? `; no contact for ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? '…' : ''}` : ''}`);
    setText('');
    onChanged();
  });
  return (
    <form className="panel" onSubmit={submitWith(add.run)} aria-label="Add members">
      <h2>Add members</h2>
      <div className="field">
        <label htmlFor="l-emails">Email addresses</label>
        <textarea id="l-emails" rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder="ann@example.com, bob@example.com" />
      </div>
      <label><input type="checkbox" checked={createMissing} onChange={(e) => setCreateMissing(e.target.checked)} /> Create contacts for addresses that have none</label>
      <div className="actions"><button type="submit" disabled={add.busy || text.trim() === ''}>Add to list</button></div>
      {result !== null && <p role="status">{result}</p>}
      {add.error !== null && <ErrorMessage error={add.error} />}
    </form>
  );
}
