import { FORMATS, type ContentFormat } from '../model/content.ts';

/** How a new message is written: HTML, MJML or blocks (chosen once, on create). */
export function FormatChoice({
  name,
  value,
  onChange,
}: {
  /** The radio group's name (unique on the page). */
  name: string;
  value: ContentFormat;
  onChange: (format: ContentFormat) => void;
}) {
  return (
    <fieldset className="format-choice">
      <legend>Format</legend>
      {FORMATS.map((f) => (
        <label key={f.value} className="format-option">
          <input
            type="radio"
            name={name}
            value={f.value}
            checked={value === f.value}
            onChange={() => onChange(f.value)}
          />
          <span>
            <strong>{f.label}</strong>
            <span className="hint">{f.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
