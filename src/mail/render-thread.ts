// A render thread of the pool in render-pool.ts: answers one task at a time.
import { parentPort } from 'node:worker_threads';
import { answerRenderTask, type RenderTask } from './render-batch.ts';

parentPort!.on('message', (task: RenderTask) => parentPort!.postMessage(answerRenderTask(task)));
parentPort!.postMessage('ready');
