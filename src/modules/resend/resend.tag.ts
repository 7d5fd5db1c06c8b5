/** The OpenAPI tag of every /resend route. */
export const RESEND_TAG = 'Resend';
