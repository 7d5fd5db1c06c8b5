// The front door of the settings module: other modules import only what is exported here.
export { DEFAULT_SETTINGS, getProjectSettings } from './settings.service.ts';
export type { DefaultSender, ProjectSettings, TrackingMode } from './settings.service.ts';
export { frequencyCapDays } from './settings.frequency-cap.ts';
export { noSender } from './settings.default-from.ts';
