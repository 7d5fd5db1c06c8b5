// The front door of the checks module (the pre-send check): other modules import only what is exported here.
export { checkFailed, checkMessage, type CheckInput } from './checks.service.ts';
export { dataKeysRead } from './checks.variables.ts';
export { checkCode, checkResultSchema } from './checks.schemas.ts';
export { CHECK_CODES, type CheckCode, type CheckIssue, type CheckResult } from './checks.types.ts';
