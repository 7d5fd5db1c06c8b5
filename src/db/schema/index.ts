export * from './projects.ts';
export * from './platform.ts';
export * from './contacts.ts';
export * from './events.ts';
