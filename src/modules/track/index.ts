// The front door of the track module: other modules import only what is exported here (nothing yet).
export {};
