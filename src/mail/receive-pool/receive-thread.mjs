// Entry of a receive thread when Herald runs from its TypeScript source (tests, `tsx`): registers tsx so the
// thread can load it. The built server (dist/) has its own bundled entry instead.
import { register } from 'tsx/esm/api';

register();
const { default: readReceivedMoving } = await import('./receive-thread.ts');
export default readReceivedMoving;
