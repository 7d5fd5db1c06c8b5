// A render thread of the pool in render-pool.ts: answers one batch at a time.
import { parentPort } from 'node:worker_threads';
import { answerRenderBatch, type RenderBatch } from './render-batch.ts';

parentPort!.on('message', (batch: RenderBatch) => parentPort!.postMessage(answerRenderBatch(batch)));
parentPort!.postMessage('ready');
