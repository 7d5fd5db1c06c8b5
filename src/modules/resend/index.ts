// The front door of the resend module: it serves HTTP only, so other modules import nothing from it.
export {};
