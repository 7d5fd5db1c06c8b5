#!/usr/bin/env node
// The `herald` command (package.json "bin"): runs src/cli.ts through tsx, a runtime dependency of Herald.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
