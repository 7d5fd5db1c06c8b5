// The workflows module: workflows, their versions and executions.
import type { ModuleManifest } from '../../context.types.ts';
import { workflowStepJob } from './workflows.jobs.ts';
import { workflowPump } from './workflows.pollers.ts';
import {
  segmentNamedByWorkflows,
  segmentTriggersWorkflows,
  templateSentByWorkflows,
  topicNamedByWorkflows,
} from './workflows.references.ts';
import { workflowRoutes } from './workflows.routes.ts';
import { releaseHeldWorkflows } from './workflows.executions.service.ts';

export const workflowsModule: ModuleManifest = {
  name: 'workflows',
  routes: [workflowRoutes],
  jobs: [workflowStepJob],
  pollers: [workflowPump],
  releaseHolds: releaseHeldWorkflows,
  references: {
    segment: segmentNamedByWorkflows,
    template: templateSentByWorkflows,
    topic: topicNamedByWorkflows,
    segmentTracking: segmentTriggersWorkflows,
  },
};
