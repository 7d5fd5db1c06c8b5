import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/lock.ts';
import { startRuntime, type Role, type Runtime } from './runtime.ts';
import * as projects from './modules/projects/projects.service.ts';

const usage = `herald <command>   (herald --help: this text)

  serve                         API and worker in one process (the default of npm start)
  api                           HTTP API only
  worker                        background jobs only
  migrate                       bring the database schema up to date and exit
  projects create <name>        create a project and print its keys
  projects list                 list projects
  projects disable|enable <id>  disable or re-enable a project
  keys create <projectId> [--type secret|public]
  keys revoke <projectId> <keyId>
`;

function printBootstrap(runtime: Runtime): void {
  const lines: string[] = [];
  if (runtime.bootstrap) {
    lines.push(`Created project "${runtime.bootstrap.name}" (${runtime.bootstrap.id}). Its keys are shown only now:`);
    lines.push(`  secret key: ${runtime.bootstrap.secretKey}`, `  public key: ${runtime.bootstrap.publicKey}`);
  }
  if (runtime.generatedAdminToken) lines.push(`  admin token: ${runtime.generatedAdminToken}  (saved in DATA_DIR/admin-token)`);
  if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

async function runServer(role: Role): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config, role);
  printBootstrap(runtime);
  const address = runtime.app?.server.address();
  if (address && typeof address === 'object') process.stdout.write(`Herald ${role} listening on http://${config.host}:${address.port} (docs: /docs)\n`);
  else process.stdout.write(`Herald ${role} running\n`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    runtime.ctx.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 20_000);
    timer.unref();
    runtime.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

async function runTool(action: (runtime: Runtime) => Promise<unknown>): Promise<void> {
  const runtime = await startRuntime(loadConfig(), 'tool');
  try {
    const result = await action(runtime);
    if (result !== undefined) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } finally {
    await runtime.close();
  }
}

class UsageError extends Error {}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: { type: { type: 'string', default: 'secret' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    // node:util's message names the option (Unknown option '--x'); the usage says what there is.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseCommandLine(argv);
  const [command, sub, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(usage);
    return;
  }
  switch (command) {
    case 'serve':
    case 'api':
    case 'worker':
      return runServer(command);
    case 'migrate':
      return runTool(async () => { process.stdout.write('Database is up to date.\n'); });
    case 'projects':
      if (sub === 'create' && rest[0]) return runTool(({ ctx }) => projects.createProject({ db: ctx.db, name: rest.join(' ') }));
      if (sub === 'list') return runTool(({ ctx }) => projects.listProjects({ db: ctx.db, limit: 100 }));
      if ((sub === 'disable' || sub === 'enable') && rest[0]) {
        return runTool(({ ctx }) => projects.updateProject({ db: ctx.db, id: rest[0]!, disabled: sub === 'disable' }));
      }
      break;
    case 'keys':
      if (sub === 'create' && rest[0] && (values.type === 'secret' || values.type === 'public')) {
        const type = values.type;
        return runTool(({ ctx }) => projects.createApiKey({ db: ctx.db, projectId: rest[0]!, type }));
      }
      if (sub === 'revoke' && rest[0] && rest[1]) {
        return runTool(async ({ ctx }) => (await projects.revokeApiKey({ db: ctx.db, projectId: rest[0]!, keyId: rest[1]! })).view);
      }
      break;
  }
  process.stderr.write(usage);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`herald: ${error.message}\n\n${usage}`);
    process.exit(2);
  } else if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`herald: ${error.message}\n`);
  } else {
    process.stderr.write(`herald: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
