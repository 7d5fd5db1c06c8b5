// The front door of the campaigns module: other modules import only what is exported here (nothing yet).
export {};
