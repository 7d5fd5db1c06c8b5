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
export { listConsent, recordConsent, requestSource, setConsentFollowUps } from './contacts.consent.ts';
export type { ConsentEntry, ConsentFollowUp, ConsentSource } from './contacts.consent.ts';
export { claimConfirmation, confirmContact } from './contacts.confirmation.ts';
export { confirmationSchema, consentEntrySchema } from './contacts.schemas.ts';
export { confirmationOf } from './contacts.service.ts';
export {
  dormantAfterDaysSql,
  ENGAGEMENT_LEVELS,
  engagementLevelSql,
  hourOfWeek,
  WEEK_HOURS,
} from './contacts.engagement.ts';
export type { EngagementLevel, EngagementView } from './contacts.engagement.ts';
export {
  countEngagementLevels,
  findDormantAfterDays,
  marketingReceivedStatement,
  recordHumanActivity,
} from './contacts.engagement.service.ts';
export { activeSnooze, setContactSnooze, SNOOZE_CHOICES } from './contacts.snooze.ts';
export type { SnoozeChoice } from './contacts.snooze.ts';
export {
  createContactProperty,
  deleteContactProperty,
  findDataFallbacks,
  findPropertyTypes,
  getContactProperty,
  listContactProperties,
  updateContactProperty,
} from './contacts.properties.ts';
export type { ContactPropertyView } from './contacts.properties.ts';
