// Validation of a block document given as unknown JSON. The cheap limits come first, without recursion and
// stopping at the first excess (size, then block count), so a huge document is refused before the schema or the
// compiler look at it; the schema is not recursive, so a deeply nested one is refused at its first bad level.
import type { z } from 'zod';
import { blockDocumentSchema, MAX_BLOCKS, MAX_DOCUMENT_LENGTH, type BlockDocument } from './blocks.ts';
import { ContentError, contentError, issue } from './errors.ts';

/** `field` followed by the path: `content.blocks[2].columns[0].blocks[1].url`. */
export function formatPath(field: string, path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`),
    field,
  );
}

/**
 * Refuses a document longer than the limit as JSON, walking it with an explicit stack: depth costs nothing (the
 * schema then stops at the first level that does not fit), and the walk stops as soon as the size is exceeded.
 */
function checkSize(content: unknown, field: string): void {
  let size = 0;
  const stack: unknown[] = [content];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') size += value.length + 2;
    else if (typeof value === 'number' || typeof value === 'boolean') size += String(value).length;
    else if (value === null || typeof value !== 'object') size += 4;
    else if (Array.isArray(value)) {
      size += 2 + value.length;
      if (size <= MAX_DOCUMENT_LENGTH) for (const item of value) stack.push(item);
    } else {
      const keys = Object.keys(value);
      size += 2 + keys.length;
      for (const key of keys) {
        if (size > MAX_DOCUMENT_LENGTH) break;
        size += key.length + 3;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
    if (size > MAX_DOCUMENT_LENGTH) {
      throw contentError(
        field,
        'too_long',
        `the block document is longer than ${MAX_DOCUMENT_LENGTH.toLocaleString('en-US')} characters as JSON`,
      );
    }
  }
}

const arrayAt = (value: unknown, key: string): unknown[] => {
  const found = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(found) ? found : [];
};

/** Refuses more than MAX_BLOCKS blocks, counting those inside columns. */
function checkBlockCount(content: unknown, field: string): void {
  const blocks = arrayAt(content, 'blocks');
  let count = blocks.length;
  for (const block of blocks) {
    for (const column of arrayAt(block, 'columns')) count += arrayAt(column, 'blocks').length;
  }
  if (count > MAX_BLOCKS) {
    throw contentError(
      `${field}.blocks`,
      'too_many_blocks',
      `the document holds ${count.toLocaleString('en-US')} blocks; at most ${MAX_BLOCKS.toLocaleString('en-US')}`,
    );
  }
}

function codeOf(zodIssue: z.core.$ZodIssue): string {
  const custom = (zodIssue as { params?: { code?: unknown } }).params?.code;
  if (typeof custom === 'string') return custom;
  if (zodIssue.code === 'too_big' && zodIssue.origin === 'string') return 'too_long';
  return 'invalid_block';
}

const UNITS: Record<string, string> = { string: ' characters', array: ' items' };

function messageOf(zodIssue: z.core.$ZodIssue): string {
  if (zodIssue.code === 'too_big' || zodIssue.code === 'too_small') {
    const limit = Number(zodIssue.code === 'too_big' ? zodIssue.maximum : zodIssue.minimum).toLocaleString('en-US');
    return `must be at ${zodIssue.code === 'too_big' ? 'most' : 'least'} ${limit}${UNITS[zodIssue.origin] ?? ''}`;
  }
  return zodIssue.message;
}

/** The block document in `content`, validated; a ContentError names each problem's path under `field`. */
export function parseBlockDocument(content: unknown, field: string): BlockDocument {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw contentError(field, 'invalid_block', 'must be a block document: {"version": 1, "blocks": [...]}');
  }
  checkSize(content, field);
  checkBlockCount(content, field);
  const parsed = blockDocumentSchema.safeParse(content);
  if (parsed.success) return parsed.data;
  throw new ContentError(parsed.error.issues.map((i) => issue(formatPath(field, i.path), codeOf(i), messageOf(i))));
}
