// The front door of the verify module (address verification, POST /v1/verify): nothing for other modules yet.
export {};
