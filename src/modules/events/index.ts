// The front door of the events module: other modules import only what is exported here.
export { recordEvents } from './events.service.ts';
