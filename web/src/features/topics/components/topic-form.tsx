import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Topic } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';

export type TopicDefault = Topic['defaultSubscription'];
export interface TopicInput {
  name: string;
  description: string | null;
  defaultSubscription: TopicDefault;
}

const DEFAULT_LABELS: Record<TopicDefault, string> = { OPT_IN: 'Opt-in', OPT_OUT: 'Opt-out' };

/** What each default means for a contact who chose nothing. */
const DEFAULT_MEANINGS: Record<TopicDefault, string> = {
  OPT_IN: 'Only contacts who chose the topic hear about it.',
  OPT_OUT: 'Every subscribed contact hears about it unless they chose out.',
};

/** Name, description and (on create only: it cannot change later) the default of a topic; `readOnly`: no button. */
export function TopicForm({
  initial,
  submitLabel,
  onSubmit,
  editing,
  readOnly = false,
}: {
  initial: TopicInput;
  submitLabel: string;
  onSubmit: (input: TopicInput) => Promise<void>;
  editing?: boolean;
  readOnly?: boolean;
}) {
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description ?? '');
  const [defaultSubscription, setDefault] = useState<TopicDefault>(initial.defaultSubscription);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => onSubmit({ name: name.trim(), description: description.trim() || null, defaultSubscription }),
    onMutate: () => setSaved(false),
    onSuccess: () => setSaved(true),
  });
  return (
    <form className="panel" onSubmit={submitWith(() => save.mutate())} aria-label="Topic">
      <div className="grid-2">
        <div className="field">
          <label htmlFor="topic-name">Name</label>
          <input id="topic-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="topic-default">Default</label>
          <select
            id="topic-default"
            value={defaultSubscription}
            disabled={editing}
            onChange={(e) => setDefault(e.target.value as TopicDefault)}
          >
            {(Object.keys(DEFAULT_LABELS) as TopicDefault[]).map((d) => (
              <option key={d} value={d}>
                {DEFAULT_LABELS[d]}
              </option>
            ))}
          </select>
          <p className="hint">
            {DEFAULT_MEANINGS[defaultSubscription]}
            {editing && " Fixed once the topic exists: contacts' choices rest on it."}
          </p>
        </div>
      </div>
      <div className="field">
        <label htmlFor="topic-description">Description</label>
        <textarea
          id="topic-description"
          rows={2}
          maxLength={2000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      {!readOnly && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {submitLabel}
          </button>
          {editing && saved && save.error === null && (
            <span role="status" className="ok">
              Saved
            </span>
          )}
        </div>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}
