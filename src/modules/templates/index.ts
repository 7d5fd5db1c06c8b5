// The front door of the templates module: other modules import only what is exported here.
export { contentFields, contentFormat, singleLine, translationsSchema } from './templates.schemas.ts';
export { checkTemplateSyntax, templateProblem } from './templates.syntax.ts';
export {
  createTemplate,
  deleteTemplate,
  findTemplate,
  findTemplatesByIds,
  getTemplate,
  listTemplates,
  publishedSnapshot,
  publishTemplate,
  requireSendableTemplate,
  requireTemplate,
  updateTemplate,
} from './templates.service.ts';
export {
  compileSource,
  layoutChoiceOf,
  sourceOver,
  translationsView,
  sourceField,
  translated,
  type CompiledContent,
  type ContentSource,
} from './templates.content.ts';
export type { TemplateRow } from './templates.service.ts';
