import { useId, useRef } from 'react';
import { FieldProblem, useInvalid } from '../field-errors.tsx';

/** Tags the formatting buttons put around the selected text. */
const WRAPS = [
  { label: 'Bold', open: '<strong>', close: '</strong>' },
  { label: 'Italic', open: '<em>', close: '</em>' },
  { label: 'Link', open: '<a href="https://">', close: '</a>' },
  { label: 'List', open: '<ul>\n  <li>', close: '</li>\n</ul>' },
] as const;

/**
 * Rich text as HTML (p, br, strong, em, a, ul, ol, li, span with a colour), with buttons that wrap the selection in
 * bold, italic, a link or a list.
 */
export function HtmlField({
  label,
  path,
  value,
  onChange,
  hint,
  toolbar = true,
}: {
  label: string;
  path: string;
  value: string;
  onChange: (html: string) => void;
  hint?: string;
  toolbar?: boolean;
}) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const invalid = useInvalid(path, `${id}-problem`);
  const wrap = (open: string, close: string) => {
    const el = area.current;
    if (!el) return;
    const { selectionStart: start, selectionEnd: end } = el;
    onChange(value.slice(0, start) + open + value.slice(start, end) + close + value.slice(end));
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(start + open.length, end + open.length);
    });
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {toolbar && (
        <div className="html-toolbar" role="group" aria-label={`Format ${label.toLowerCase()}`}>
          {WRAPS.map((w) => (
            <button key={w.label} type="button" className="secondary small" onClick={() => wrap(w.open, w.close)}>
              {w.label}
            </button>
          ))}
        </div>
      )}
      <textarea
        id={id}
        ref={area}
        className="code"
        rows={6}
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...invalid}
      />
      {hint && <p className="hint">{hint}</p>}
      <FieldProblem path={path} id={`${id}-problem`} />
    </div>
  );
}
