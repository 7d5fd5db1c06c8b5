// The front door of the contacts module: other modules import only what is exported here.
export { findContact, findContactsByEmails } from './contacts.repo.ts';
export type { ContactRow } from './contacts.repo.ts';
export { contactSchema, dataSchema, emailSchema } from './contacts.schemas.ts';
export { normalizeEmail, toContactView, updateContact, upsertContacts } from './contacts.service.ts';
export type { UpsertRow, UpsertedContact } from './contacts.service.ts';
