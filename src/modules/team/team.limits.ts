/** Longest password field read (the rules, checked after parsing, allow 256 characters and name the rule broken). */
export const PASSWORD_MAX_INPUT = 256 + 1024;
