// The front door of the send module: other modules import only what is exported here (nothing yet).
export {};
