// Entry of a render thread when Herald runs from its TypeScript source (`node --import tsx`, the test
// runner): registers tsx, then loads the thread's code. The built server (dist/) bundles its own entry.
import { register } from 'tsx/esm/api';

register();
await import('./render-thread.ts');
