import { useId, useRef, useState } from 'react';
import { lineOf } from '../model/content.ts';
import { useErrorsAt } from './field-errors.tsx';

/** The offsets a line starts and ends at in a text (1-based line). */
function lineRange(text: string, line: number): [number, number] {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', start);
    if (next < 0) break;
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end < 0 ? text.length : end];
}

/** Line and column of an offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/**
 * MJML in a code area; the problems the server found (as it compiles the live preview or a save) listed with their
 * line, each a button that selects that line.
 */
export function MjmlEditor({
  id,
  label,
  value,
  onChange,
  errorPath,
  rows = 18,
  readOnly = false,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (mjml: string) => void;
  /** The API's name of this source in errors: `content`, `translations.de.content`. */
  errorPath: string;
  rows?: number;
  readOnly?: boolean;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const problemsId = useId();
  const [caret, setCaret] = useState({ line: 1, column: 1 });
  const problems = useErrorsAt(errorPath);
  const track = () => {
    const el = area.current;
    if (el) setCaret(position(el.value, el.selectionStart));
  };
  const goTo = (line: number) => {
    const el = area.current;
    if (!el) return;
    const [start, end] = lineRange(el.value, line);
    el.focus();
    el.setSelectionRange(start, end);
    // A selection set by script does not scroll every browser's text area to it: scroll to the line's height.
    el.scrollTop = Math.max(0, (line - 3) * parseFloat(getComputedStyle(el).lineHeight || '18'));
    track();
  };
  return (
    <div className="field mjml-editor">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        ref={area}
        className="code"
        rows={rows}
        required
        readOnly={readOnly}
        spellCheck={false}
        value={value}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length ? problemsId : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          track();
        }}
        onKeyUp={track}
        onClick={track}
      />
      <p className="hint caret" aria-live="off">
        Line {caret.line}, column {caret.column}. Liquid variables work in the text and attributes.
      </p>
      {problems.length > 0 && (
        <ul className="mjml-problems field-error" id={problemsId} role="alert">
          {problems.map((message) => {
            const line = lineOf(message);
            return (
              <li key={message}>
                {message}{' '}
                {line !== null && (
                  <button type="button" className="secondary small" onClick={() => goTo(line)}>
                    Go to line {line}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
