// The front door of the contacts module: other modules import only what is exported here.
export type { ContactRow, ContactView } from './contacts.service.ts';
export { deleteContact, getContact, listContacts, upsertContact } from './contacts.service.ts';
export { contactLocaleField, contactSchema, dataSchema, emailSchema } from './contacts.schemas.ts';
export {
  findContact,
  findContactEmails,
  findContactsByEmails,
  normalizeEmail,
  recordContactChanged,
  toContactView,
  updateContact,
  upsertContacts,
} from './contacts.service.ts';
export type { UpsertRow, UpsertedContact } from './contacts.service.ts';
export { activeSnooze, MAX_SNOOZE_DAYS, setContactSnooze, SNOOZE_CHOICES } from './contacts.snooze.ts';
export type { SnoozeChoice, SnoozeSource } from './contacts.snooze.ts';
