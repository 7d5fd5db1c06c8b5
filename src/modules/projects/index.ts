// The front door of the projects module: other modules and the app's assembly import only what is exported here.
export { createKeyBody } from './projects.schemas.ts';
export { recipientSenderName } from './projects.sender-name.ts';
export type { ApiKeyView } from './projects.service.ts';
export {
  createApiKey,
  createProject,
  DEFAULT_PROJECT_NAME,
  ensureDefaultProject,
  findKeyByHash,
  getProject,
  listApiKeys,
  listProjects,
  revokeApiKey,
  revokeOwnApiKey,
  updateProject,
} from './projects.service.ts';
