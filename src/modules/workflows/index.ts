// The front door of the workflows module: other modules (and the process assembly) import only what is exported here.
export { workflowRoutes } from './workflows.routes.ts';
export { workflowPump, workflowStepJob } from './workflows.jobs.ts';
