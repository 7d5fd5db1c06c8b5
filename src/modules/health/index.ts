// The front door of the health module: other modules import only what is exported here (nothing yet).
export {};
