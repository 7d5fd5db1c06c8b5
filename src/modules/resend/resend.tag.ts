/** The OpenAPI tag of every /resend route. */
export const RESEND_TAG = 'Resend';

/** Who may call a /resend read of the audience or its mail: any secret key that reads, any member. */
export const RESEND_READ = { auth: 'secret', scope: 'read', role: 'viewer' } as const;

/** Who may call a /resend change of the audience or its mail: a full secret key, an editor. */
export const RESEND_WRITE = { auth: 'secret', scope: 'full', role: 'editor' } as const;
