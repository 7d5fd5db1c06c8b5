import { useId, useState } from 'react';
import { formatJson } from '../format.ts';

/**
 * A JSON object typed as text: changes reach `onChange` only while the text parses as an object; `onProblem`
 * hears whether the text is invalid (so a form can refuse to save the last valid value behind it). A value changed
 * from outside (another editor) replaces the text, unless it is what the text already says.
 */
export function JsonField({
  label,
  value,
  onChange,
  onProblem,
  rows = 6,
  hint,
}: {
  label: string;
  value: unknown;
  onChange: (v: Record<string, unknown>) => void;
  onProblem?: (problem: string | null) => void;
  rows?: number;
  hint?: string;
}) {
  const id = useId();
  const valueJson = JSON.stringify(value ?? {});
  // What was typed, with the value it was typed over (or gave): typing over another value no longer shows.
  const [typed, setTyped] = useState<{ text: string; problem: string | null; over: string } | null>(null);
  const current = typed !== null && typed.over === valueJson ? typed : null;
  const text = current ? current.text : formatJson(value ?? {});
  const problem = current ? current.problem : null;
  const change = (next: string) => {
    try {
      const parsed: unknown = JSON.parse(next);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('must be a JSON object');
      setTyped({ text: next, problem: null, over: JSON.stringify(parsed) });
      onProblem?.(null);
      onChange(parsed as Record<string, unknown>);
    } catch (err) {
      const message = err instanceof Error ? err.message : 'invalid JSON';
      setTyped({ text: next, problem: message, over: valueJson });
      onProblem?.(message);
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="code"
        rows={rows}
        value={text}
        spellCheck={false}
        aria-invalid={problem !== null}
        aria-describedby={problem || hint ? `${id}-note` : undefined}
        onChange={(e) => change(e.target.value)}
      />
      {(problem || hint) && (
        <p id={`${id}-note`} className={problem ? 'field-error' : 'hint'}>
          {problem ? `Not saved yet: ${problem}` : hint}
        </p>
      )}
    </div>
  );
}
