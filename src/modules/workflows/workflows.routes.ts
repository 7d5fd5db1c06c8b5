import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errorResponses, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  createWorkflowBody,
  executionParams,
  executionSchema,
  listExecutionsQuery,
  signingSecretSchema,
  startExecutionBody,
  updateWorkflowBody,
  workflowRouteDocs,
  workflowSchema,
} from './workflows.schemas.ts';
import * as executions from './workflows.executions.service.ts';
import * as service from './workflows.service.ts';
import { getSigningSecret, rotateSigningSecret } from './workflows.signing.ts';

/** /workflows: event-triggered automations, their executions, and the secret their webhooks are signed with. */
export function workflowRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Workflows'];
    const one = { 200: envelope(workflowSchema), ...errorResponses };
    const oneExecution = { 200: envelope(executionSchema), ...errorResponses };

    app.post(
      '/workflows',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create a workflow',
          operationId: 'createWorkflow',
          body: createWorkflowBody,
          response: { 201: envelope(workflowSchema), ...errorResponses },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createWorkflow({ ctx, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/workflows',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List workflows',
          operationId: 'listWorkflows',
          querystring: paginationQuery,
          response: { 200: listEnvelope(workflowSchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(await service.listWorkflows({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/workflows/signing-secret',
      {
        config: { ...config, scope: 'read', role: 'admin' },
        schema: {
          tags,
          summary: 'Get the webhook signing secret',
          operationId: 'getWorkflowSigningSecret',
          description: workflowRouteDocs.getWorkflowSigningSecret,
          response: { 200: envelope(signingSecretSchema), ...errorResponses },
        },
      },
      async (request) => ok(await getSigningSecret({ ctx, projectId: projectOf(request) })),
    );

    app.post(
      '/workflows/signing-secret/rotate',
      {
        config: { ...config, secretFields: ['secret'], scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Rotate the webhook signing secret',
          operationId: 'rotateWorkflowSigningSecret',
          description: workflowRouteDocs.rotateWorkflowSigningSecret,
          response: { 200: envelope(signingSecretSchema), ...errorResponses },
        },
      },
      async (request) => ok(await rotateSigningSecret({ ctx, projectId: projectOf(request) })),
    );

    app.get(
      '/workflows/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: { tags, summary: 'Get a workflow', operationId: 'getWorkflow', params: idParams, response: one },
      },
      async (request) =>
        ok(await service.getWorkflow({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/workflows/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Update a workflow',
          operationId: 'updateWorkflow',
          description: workflowRouteDocs.updateWorkflow,
          params: idParams,
          body: updateWorkflowBody,
          response: one,
        },
      },
      async (request) =>
        ok(
          await service.updateWorkflow({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/workflows/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Delete a workflow',
          operationId: 'deleteWorkflow',
          description: 'No new executions start; running and waiting ones end CANCELLED.',
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errorResponses },
        },
      },
      async (request) =>
        ok(await service.deleteWorkflow({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.get(
      '/workflows/:id/executions',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List executions',
          operationId: 'listWorkflowExecutions',
          params: idParams,
          querystring: listExecutionsQuery,
          response: { 200: listEnvelope(executionSchema), ...errorResponses },
        },
      },
      async (request) =>
        ok(
          await executions.listExecutions({
            db: ctx.db,
            projectId: projectOf(request),
            id: request.params.id,
            ...request.query,
          }),
        ),
    );

    app.post(
      '/workflows/:id/executions',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Start an execution',
          operationId: 'startWorkflowExecution',
          description: workflowRouteDocs.startWorkflowExecution,
          params: idParams,
          body: startExecutionBody,
          response: { 201: envelope(executionSchema), ...errorResponses },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(
          await executions.startExecution({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            contactId: request.body.contactId,
          }),
        );
      },
    );

    app.get(
      '/workflows/:id/executions/:executionId',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get an execution',
          operationId: 'getWorkflowExecution',
          description: 'One execution with the history of its step runs.',
          params: executionParams,
          response: oneExecution,
        },
      },
      async (request) =>
        ok(await executions.getExecution({ db: ctx.db, projectId: projectOf(request), ...request.params })),
    );

    app.post(
      '/workflows/:id/executions/:executionId/cancel',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Cancel an execution',
          operationId: 'cancelWorkflowExecution',
          description: 'Ends a RUNNING or WAITING execution as CANCELLED (409 otherwise).',
          params: executionParams,
          response: oneExecution,
        },
      },
      async (request) =>
        ok(await executions.cancelExecution({ db: ctx.db, projectId: projectOf(request), ...request.params })),
    );
  };
}
