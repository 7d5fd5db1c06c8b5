/** Which part of a message a panel shows. */
export type MailFormat = 'html' | 'text';

/** The HTML / Text switch of a panel that shows a message (a template's preview, an email's content). */
export function FormatSwitch({
  label,
  value,
  onChange,
}: {
  label: string;
  value: MailFormat;
  onChange: (format: MailFormat) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      <button type="button" aria-pressed={value === 'html'} onClick={() => onChange('html')}>
        HTML
      </button>
      <button type="button" aria-pressed={value === 'text'} onClick={() => onChange('text')}>
        Text
      </button>
    </div>
  );
}
