// The front door of the sso module: other modules import only what is exported here (nothing yet).
export {};
