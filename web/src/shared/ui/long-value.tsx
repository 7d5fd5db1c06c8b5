import { Fragment, type ReactNode } from 'react';

// Separators a long value (address, URL, id, event name, domain) may wrap after: the line breaks between its parts
// ("workflow.execution." / "completed"), never inside a word.
const SEPARATED = /([./@_?&=:,+#~-]+)/;
/** Values shorter than this never need a break opportunity of their own. */
const SHORT = 16;

/**
 * `text` with a break opportunity (`<wbr>`) after each separator, so a long value wraps at sensible points; text
 * with spaces wraps as words already and is returned as it is.
 */
export function breakable(text: string): ReactNode {
  if (text.length < SHORT) return text;
  const words = text.split(/(\s+)/);
  if (!words.some((w) => w.length >= SHORT && SEPARATED.test(w))) return text;
  return words.map((word, i) => {
    if (word.length < SHORT) return word;
    const parts = word.split(SEPARATED);
    return (
      <Fragment key={i}>
        {parts.map((part, j) => (
          <Fragment key={j}>
            {part}
            {j % 2 === 1 && j < parts.length - 1 ? <wbr /> : null}
          </Fragment>
        ))}
      </Fragment>
    );
  });
}

/**
 * A long value shown whole, wrapping at its separators (and, for a run without any, anywhere), with the full value
 * as its tooltip.
 */
export function LongValue({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className ? `long-value ${className}` : 'long-value'} title={text}>
      {breakable(text)}
    </span>
  );
}
