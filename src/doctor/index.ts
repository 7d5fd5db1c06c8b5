// `herald doctor`: checks configuration, database, PUBLIC_URL, sender domains, transports, listeners and the clock,
// each under a time limit, and prints a row per check; exit code 1 when any check FAILs (docs/doctor.md).
import { ConfigError, loadConfig } from '../config.ts';
import { ntpClockRow, parseNtpOption, type NtpServer } from './clock.ts';
import { databaseRows } from './database.ts';
import type { DatabaseLimits } from './migrations.ts';
import { listenerRows, publicUrlRow } from './network.ts';
import { formatJson, formatTable } from './report.ts';
import { fail, runCheck, type CheckRow } from './rows.ts';
import { configRow, findSecrets, secretsRow } from './setup.ts';
import { transportRow } from './transports.ts';

export type { CheckRow, Status } from './rows.ts';

export interface DoctorLimits extends DatabaseLimits {
  /** One network check: an HTTP request, an SMTP session, a greeting, an NTP exchange. */
  networkMs: number;
}

const LIMITS: DoctorLimits = {
  networkMs: 5_000,
  openMs: 20_000,
  queryMs: 5_000,
  domainMs: 15_000,
  transportMs: 15_000,
};

/** Runs every check on this process's configuration; the rows in the order they are shown. */
export async function runDoctor(opts: { ntp: NtpServer | null; limits?: DoctorLimits }): Promise<CheckRow[]> {
  const limits = opts.limits ?? LIMITS;
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const fix = 'Correct the variables the detail names (docs/configuration.md); nothing else was checked.';
    return [fail('configuration', error.message.replace(/\n\s*/g, ' '), fix)];
  }
  const found = findSecrets(config);
  const net = limits.networkMs;
  // Network checks first and side by side: the embedded database's start-up would hold up the timing of their answers.
  // Each limits its own waits; the outer limit is for a host name that never resolves.
  const [publicUrl, transport, listeners, clock] = await Promise.all([
    runCheck('public url', net * 2, 'Check that the host of PUBLIC_URL resolves here.', () =>
      publicUrlRow(config, net),
    ),
    runCheck('transport', net * 2, "Check that the transport's host resolves here.", () => transportRow(config, net)),
    runCheck('listeners', net * 2, "Check the listeners' hosts (*_SMTP_HOST).", () => listenerRows(config, net)),
    opts.ntp ? runCheck('clock', net * 2, 'Check the NTP host (--ntp).', () => ntpClockRow(opts.ntp!, net)) : [],
  ]);
  const database = await databaseRows(config, found.secrets, limits);
  // The projects' transports are read from the database; they are shown beside the instance's own.
  const projectTransport = (row: CheckRow) => row.name.startsWith('transport ');
  return [
    configRow(config),
    secretsRow(config, found),
    ...database.filter((row) => !projectTransport(row)),
    ...publicUrl,
    ...transport,
    ...database.filter(projectTransport),
    ...listeners,
    ...clock,
  ];
}

/** The command: parses its options, prints the rows (a table, or JSON with `json`), exits 1 on any FAIL, else 0. */
export async function doctorCommand(options: { json: boolean; ntp: string | undefined }): Promise<void> {
  let ntp: NtpServer | null;
  try {
    ntp = parseNtpOption(options.ntp);
  } catch (error) {
    process.stderr.write(`herald: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const rows = await runDoctor({ ntp });
  const code = rows.some((row) => row.status === 'FAIL') ? 1 : 0;
  // A check that ran out of time may leave a socket open: exit once the output is written instead of waiting for it.
  process.stdout.write(options.json ? formatJson(rows) : formatTable(rows), () => process.exit(code));
}
