// The front door of the audit module: every module records its changes through recordAudit.
export { changesOf, recordAudit, REDACTED, type AuditChange } from './audit.service.ts';
