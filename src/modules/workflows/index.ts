// The front door of the workflows module: other modules (and the process assembly) import only what is exported here.
export { workflowRoutes } from './workflows.routes.ts';
export { workflowStepJob } from './workflows.jobs.ts';
export { workflowPump } from './workflows.pollers.ts';
