import { describe, expect, it } from 'vitest';
import { compileContent, ContentError, type ContentIssue } from './index.ts';

const compile = (blocks: unknown[], settings?: unknown, labels?: { unsubscribe: string; manage: string }) =>
  compileContent({ format: 'blocks', content: { version: 1, ...(settings ? { settings } : {}), blocks }, labels }).html;

/** The issues of the ContentError `run` throws. */
function issuesOf(run: () => unknown): ContentIssue[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ContentError) return err.errors;
    throw err;
  }
  throw new Error('no ContentError thrown');
}

const fields = (run: () => unknown) => issuesOf(run).map((i) => `${i.field} ${i.code}`);

describe('block document errors', () => {
  it('names the path of a javascript: URL inside columns', () => {
    const run = () =>
      compile([
        { type: 'divider' },
        { type: 'spacer', height: 10 },
        {
          type: 'columns',
          columns: [
            { blocks: [{ type: 'divider' }, { type: 'button', text: 'x', url: 'javascript:alert(1)' }] },
            { blocks: [] },
          ],
        },
      ]);
    expect(issuesOf(run)).toEqual([
      {
        field: 'content.blocks[2].columns[0].blocks[1].url',
        code: 'invalid_url',
        message: 'must be an http(s) or mailto URL, or start with a Liquid output ({{ … }})',
      },
    ]);
  });

  it('refuses image sources other than http(s) or Liquid', () => {
    for (const src of ['ftp://example.com/a.png', 'data:image/png;base64,iVBO', '/relative.png']) {
      expect(fields(() => compile([{ type: 'image', src, alt: '' }]))).toEqual(['content.blocks[0].src invalid_url']);
    }
  });

  it('refuses link hrefs in text that are not http(s), mailto or Liquid', () => {
    const run = () => compile([{ type: 'text', html: '<a href="javascript:alert(1)">x</a><a href="/x">y</a>' }]);
    expect(issuesOf(run).map((i) => i.message)).toEqual([
      'link href "javascript:alert(1)" must be http(s), mailto or start with a Liquid output',
      'link href "/x" must be http(s), mailto or start with a Liquid output',
    ]);
    expect(fields(run)).toEqual(['content.blocks[0].html invalid_url', 'content.blocks[0].html invalid_url']);
  });

  it('refuses columns inside columns', () => {
    const nested = { type: 'columns', columns: [{ blocks: [] }, { blocks: [] }] };
    const run = () =>
      compile([{ type: 'columns', columns: [{ blocks: [{ type: 'divider' }, nested] }, { blocks: [] }] }]);
    expect(issuesOf(run)).toEqual([
      {
        field: 'content.blocks[0].columns[0].blocks[1].type',
        code: 'invalid_block',
        message: 'columns cannot be nested: a column holds no columns block',
      },
    ]);
  });

  it('refuses a document ten levels deep at its first nested level, and deeper garbage without recursing', () => {
    let deep: unknown = { type: 'divider' };
    for (let i = 0; i < 10; i++) deep = { type: 'columns', columns: [{ blocks: [deep] }, { blocks: [] }] };
    expect(fields(() => compile([deep]))).toEqual(['content.blocks[0].columns[0].blocks[0].type invalid_block']);
    let garbage: unknown = 'x';
    for (let i = 0; i < 100_000; i++) garbage = { a: garbage };
    expect(fields(() => compile([{ type: 'text', html: garbage }]))).toEqual(['content.blocks[0].html invalid_block']);
    for (let i = 0; i < 100_000; i++) garbage = [garbage, 1];
    expect(fields(() => compile([{ type: 'text', html: garbage }]))).toEqual(['content too_long']);
  });

  it('refuses 5,000 blocks before compiling, naming the limit', () => {
    const blocks = Array.from({ length: 5_000 }, () => ({ type: 'divider' }));
    expect(issuesOf(() => compile(blocks))).toEqual([
      { field: 'content.blocks', code: 'too_many_blocks', message: 'the document holds 5,000 blocks; at most 1,000' },
    ]);
    const inColumns = Array.from({ length: 400 }, () => ({
      type: 'columns',
      columns: [{ blocks: [{ type: 'divider' }] }, { blocks: [{ type: 'divider' }] }],
    }));
    expect(fields(() => compile(inColumns))).toEqual(['content.blocks too_many_blocks']);
  });

  it('refuses documents that compile to more than 1,500 MJML elements', () => {
    const links = Array.from({ length: 10 }, () => ({ network: 'github', url: 'https://github.com/herald' }));
    expect(issuesOf(() => compile(Array.from({ length: 200 }, () => ({ type: 'social', links }))))).toEqual([
      {
        field: 'content.blocks',
        code: 'too_many_blocks',
        message:
          'the document compiles to 2,207 MJML elements (sections, columns, blocks, social links); at most 1,500',
      },
    ]);
  });

  it('refuses text fields over 100,000 characters and documents over 1,000,000', () => {
    expect(issuesOf(() => compile([{ type: 'text', html: 'x'.repeat(100_001) }]))).toEqual([
      { field: 'content.blocks[0].html', code: 'too_long', message: 'must be at most 100,000 characters' },
    ]);
    const big = Array.from({ length: 11 }, () => ({ type: 'text', html: 'x'.repeat(99_000) }));
    expect(issuesOf(() => compile(big))).toEqual([
      {
        field: 'content',
        code: 'too_long',
        message: 'the block document is longer than 1,000,000 characters as JSON',
      },
    ]);
  });

  it('names each schema problem with its path', () => {
    const run = () =>
      compileContent({
        format: 'blocks',
        field: 'translations.pt-BR.content',
        content: {
          version: 1,
          settings: { width: 300, linkColor: 'red', fontFamily: 'Arial; x: url(y)' },
          blocks: [
            { type: 'nope' },
            { type: 'heading', text: 'x', level: 4, extra: true },
            { type: 'social', links: [] },
            { type: 'columns', columns: [{ blocks: [] }] },
          ],
        },
      });
    expect(fields(run)).toEqual([
      'translations.pt-BR.content.settings.width invalid_block',
      'translations.pt-BR.content.settings.fontFamily invalid_block',
      'translations.pt-BR.content.settings.linkColor invalid_block',
      'translations.pt-BR.content.blocks[0].type invalid_block',
      'translations.pt-BR.content.blocks[1].level invalid_block',
      'translations.pt-BR.content.blocks[1] invalid_block',
      'translations.pt-BR.content.blocks[2].links invalid_block',
      'translations.pt-BR.content.blocks[3].columns invalid_block',
    ]);
    expect(issuesOf(run)[0]!.message).toBe('must be at least 480');
  });

  it('refuses content that is not a block document', () => {
    for (const content of ['{"version":1}', null, [], 42]) {
      expect(fields(() => compileContent({ format: 'blocks', content }))).toEqual(['content invalid_block']);
    }
    expect(fields(() => compileContent({ format: 'blocks', content: { version: 2, blocks: [] } }))).toEqual([
      'content.version invalid_block',
    ]);
  });
});
