// Types of .dependency-cruiser.mjs for the test that plants violations of its rules.
import type { IForbiddenRuleType, ICruiseOptions } from 'dependency-cruiser';

declare const config: { forbidden: (IForbiddenRuleType & { name: string })[]; options: ICruiseOptions };
export default config;
