// The front door of the events module: other modules import only what is exported here.
export { findEventView, listEvents, recordEvents } from './events.service.ts';
export type { EventView } from './events.service.ts';
export { eventsFrom } from './events.statements.ts';
