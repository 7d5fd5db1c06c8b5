import { useEffect, useId, useState } from 'react';
import { formatJson } from '../format.ts';

/**
 * A JSON object typed as text: changes reach `onChange` only while the text parses as an object; `onProblem`
 * hears whether the text is invalid (so a form can refuse to save the last valid value behind it).
 */
export function JsonField({ label, value, onChange, onProblem, rows = 6, hint }: {
  label: string; value: unknown; onChange: (v: Record<string, unknown>) => void; onProblem?: (problem: string | null) => void; rows?: number; hint?: string;
}) {
  const id = useId();
  const [text, setText] = useState(() => formatJson(value ?? {}));
  const [problem, setProblemState] = useState<string | null>(null);
  const setProblem = (next: string | null) => {
    setProblemState(next);
    onProblem?.(next);
  };
  useEffect(() => {
    // Another editor changed the value: show it, unless it is what this text already says.
    try {
      if (JSON.stringify(JSON.parse(text)) === JSON.stringify(value ?? {})) return;
    } catch { /* the text is mid-edit and invalid: replace it */ }
    setText(formatJson(value ?? {}));
    setProblem(null);
  }, [JSON.stringify(value)]);
  const change = (next: string) => {
    setText(next);
    try {
      const parsed: unknown = JSON.parse(next);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('must be a JSON object');
      setProblem(null);
      onChange(parsed as Record<string, unknown>);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'invalid JSON');
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="code" rows={rows} value={text} spellCheck={false} aria-invalid={problem !== null}
        aria-describedby={problem || hint ? `${id}-note` : undefined} onChange={(e) => change(e.target.value)} />
      {(problem || hint) && <p id={`${id}-note`} className={problem ? 'field-error' : 'hint'}>{problem ? `Not saved yet: ${problem}` : hint}</p>}
    </div>
  );
}
