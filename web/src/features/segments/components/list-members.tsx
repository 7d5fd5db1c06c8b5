import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import type { Segment } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { addListMembers } from '../api.ts';

/** Paste addresses (one per line, or separated by commas or spaces) to add them to a list, 1,000 at a time. */
export function AddListMembers({ segment, onChanged }: { segment: Segment; onChanged: () => void }) {
  const api = useApi();
  const [text, setText] = useState('');
  const [createMissing, setCreateMissing] = useState(false);
  const [result, setResult] = useState<{ added: number; already: number; missing: string[] } | null>(null);
  const add = useMutation({
    mutationFn: async () => {
      const emails = [
        ...new Set(
          text
            .split(/[\s,;]+/)
            .map((e) => e.trim())
            .filter(Boolean),
        ),
      ];
      let added = 0;
      let already = 0;
      const missing: string[] = [];
      for (let i = 0; i < emails.length; i += 1000) {
        const answer = await addListMembers(api, segment.id, { emails: emails.slice(i, i + 1000), createMissing });
        added += answer.added;
        already += answer.alreadyMembers;
        missing.push(...answer.missing);
      }
      return { added, already, missing };
    },
    onSuccess: (added) => {
      setResult(added);
      setText('');
      onChanged();
    },
  });
  return (
    <form className="panel" onSubmit={submitWith(() => add.mutate())} aria-label="Add members">
      <h2>Add members</h2>
      <div className="field">
        <label htmlFor="l-emails">Email addresses</label>
        <textarea
          id="l-emails"
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="ann@example.com, bob@example.com"
        />
      </div>
      <label>
        <input type="checkbox" checked={createMissing} onChange={(e) => setCreateMissing(e.target.checked)} /> Create
        contacts for addresses that have none
      </label>
      <div className="actions">
        <button type="submit" disabled={add.isPending || text.trim() === ''}>
          Add to list
        </button>
      </div>
      {result !== null && (
        <p role="status">
          {result.added} added, {result.already} already {result.already === 1 ? 'a member' : 'members'}.
        </p>
      )}
      {result !== null && result.missing.length > 0 && (
        <div className="field-error" data-testid="missing-members">
          <p>
            Not added: no contact has{' '}
            {result.missing.length === 1 ? 'this address' : `these ${result.missing.length} addresses`} (tick “Create
            contacts…” to add them).
          </p>
          <ul>
            {result.missing.slice(0, 10).map((email) => (
              <li key={email}>{email}</li>
            ))}
          </ul>
          {result.missing.length > 10 && <p>and {result.missing.length - 10} more.</p>}
        </div>
      )}
      {add.error !== null && <ErrorMessage error={add.error} />}
    </form>
  );
}
