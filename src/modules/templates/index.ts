// The front door of the templates module: other modules import only what is exported here.
export { singleLine } from './templates.schemas.ts';
export { checkTemplateSyntax, requireTemplate, templateProblem } from './templates.service.ts';
export { findTemplate, findTemplatesByIds } from './templates.service.ts';
export type { TemplateRow } from './templates.service.ts';
