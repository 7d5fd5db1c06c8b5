// The one error of the content compiler: every problem found, each with the field path it belongs to.

export interface ContentIssue {
  /** Path of the offending value: `content`, `content.blocks[2].url`, `layout`, `translations.pt-BR.content`… */
  field: string;
  /** What is wrong; starts with `line N: ` when the problem has a line in an MJML source. */
  message: string;
  /** mjml_syntax, mjml_invalid, unsafe_content, invalid_url, too_many_blocks, invalid_block, too_long, … */
  code: string;
  line?: number;
}

/** At most this many issues are kept: a document with thousands of bad blocks gets a readable answer. */
const MAX_ISSUES = 20;

/** Content that cannot be compiled: a 422 naming each field (and line) at fault. */
export class ContentError extends Error {
  override name = 'ContentError';
  readonly errors: ContentIssue[];

  constructor(errors: ContentIssue[]) {
    const kept = errors.slice(0, MAX_ISSUES);
    super(kept.map((e) => `${e.field}: ${e.message}`).join('; '));
    this.errors = kept;
  }
}

/** One issue, its message prefixed with its line when there is one. */
export function issue(field: string, code: string, message: string, line?: number): ContentIssue {
  return line === undefined ? { field, code, message } : { field, code, message: `line ${line}: ${message}`, line };
}

/** A ContentError of a single issue. */
export function contentError(field: string, code: string, message: string, line?: number): ContentError {
  return new ContentError([issue(field, code, message, line)]);
}
