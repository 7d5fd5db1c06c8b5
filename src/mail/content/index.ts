// The content compiler: html, mjml and block documents, with their layouts, compiled once on save to the HTML
// (Liquid kept) that render.ts renders per recipient. Infrastructure: it knows no module.
export {
  checkLayout,
  compileContent,
  CONTENT_TAG,
  type Compiled,
  type CompileInput,
  type ContentFormat,
  type LayoutFormat,
  type LayoutSource,
} from './compile.ts';
export { ContentError, type ContentIssue } from './errors.ts';
export { compileMjml } from './mjml.ts';
export { blockDocumentSchema, MAX_BLOCKS, type BlockDocument } from './blocks.ts';
export { DEFAULT_LABELS, type FooterLabels } from './blocks-mjml.ts';
