import { diffLines } from 'diff';
import { useMemo } from 'react';

/** Unchanged lines kept around each change; longer unchanged runs fold into one line. */
const CONTEXT = 3;

type Line = { kind: 'add' | 'del' | 'same'; text: string } | { kind: 'fold'; count: number };

/** The lines of a line diff, unchanged runs folded down to their context. */
function diffRows(before: string, after: string): { rows: Line[]; added: number; removed: number } {
  const rows: Line[] = [];
  let added = 0;
  let removed = 0;
  const parts = diffLines(before, after);
  parts.forEach((part, i) => {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.added || part.removed) {
      const kind = part.added ? 'add' : 'del';
      if (part.added) added += lines.length;
      else removed += lines.length;
      lines.forEach((text) => rows.push({ kind, text }));
      return;
    }
    const head = i === 0 ? 0 : CONTEXT;
    const tail = i === parts.length - 1 ? 0 : CONTEXT;
    if (lines.length <= head + tail + 1) {
      lines.forEach((text) => rows.push({ kind: 'same', text }));
      return;
    }
    lines.slice(0, head).forEach((text) => rows.push({ kind: 'same', text }));
    rows.push({ kind: 'fold', count: lines.length - head - tail });
    lines.slice(lines.length - tail).forEach((text) => rows.push({ kind: 'same', text }));
  });
  return { rows, added, removed };
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const MARK = { add: '+', del: '−', same: ' ' } as const;

/** What changed between two texts, line by line: removed lines struck, added ones marked. */
export function TextDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const { rows, added, removed } = useMemo(() => diffRows(before, after), [before, after]);
  if (added === 0 && removed === 0) return <p className="muted">No changes.</p>;
  return (
    <figure className="text-diff">
      <figcaption>
        {label}: <span className="diff-added">{plural(added, 'line')} added</span>,{' '}
        <span className="diff-removed">{removed} removed</span>
      </figcaption>
      <pre aria-label={label}>
        {rows.map((row, i) =>
          row.kind === 'fold' ? (
            <span key={i} className="diff-fold">
              … {row.count} unchanged lines …{'\n'}
            </span>
          ) : row.kind === 'add' ? (
            <ins key={i}>
              {MARK.add} {row.text}
              {'\n'}
            </ins>
          ) : row.kind === 'del' ? (
            <del key={i}>
              {MARK.del} {row.text}
              {'\n'}
            </del>
          ) : (
            <span key={i}>
              {MARK.same} {row.text}
              {'\n'}
            </span>
          ),
        )}
      </pre>
    </figure>
  );
}
