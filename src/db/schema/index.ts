export * from './projects.ts';
export * from './platform.ts';
export * from './contacts.ts';
export * from './events.ts';
export * from './domains.ts';
export * from './templates.ts';
export * from './emails.ts';
