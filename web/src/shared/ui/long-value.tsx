import { Children, cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';

// Separators a long value (address, URL, id, event name, domain) may wrap after: the line breaks between its parts
// ("workflow.execution." / "completed"), never inside a word.
const SEPARATED = /([./@_?&=:,+#~-]+)/;
/** Values shorter than this never need a break opportunity of their own. */
const SHORT = 10;

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

/**
 * `node` with break opportunities in its text: a string, and the text of the elements it is made of (a link to a
 * contact shown by its address), one level deep; text cut short with an ellipsis (`.truncate`) gets its whole value
 * as a tooltip. Table cells pass their content through it.
 */
export function breakableNode(node: ReactNode): ReactNode {
  if (typeof node === 'string') return breakable(node);
  if (Array.isArray(node)) return Children.map(node, (child) => breakableText(child));
  return breakableText(node);
}

function breakableText(node: ReactNode): ReactNode {
  if (typeof node === 'string') return breakable(node);
  if (!isValidElement(node)) return node;
  const element = node as ReactElement<{ children?: ReactNode; className?: string; title?: string }>;
  const { children, className, title } = element.props;
  if (typeof children !== 'string') return node;
  if (/\btruncate\b/.test(className ?? '')) return title ? node : cloneElement(element, { title: children });
  const broken = breakable(children);
  return broken === children ? node : cloneElement(element, {}, broken);
}
