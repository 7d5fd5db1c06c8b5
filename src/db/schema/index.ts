export * from './projects.ts';
export * from './platform.ts';
