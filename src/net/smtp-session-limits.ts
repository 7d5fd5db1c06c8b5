// Limits on how long and how much an SMTP client may talk without sending mail, for every listener Herald runs.
// smtp-server bounds idle time (socketTimeout) and unrecognised commands, but a client that keeps sending NOOP,
// RSET or HELO, or trickles a message one byte a minute, could otherwise hold a connection slot forever and shut
// everyone else out once the listener is full.
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import { ConnectionCounter } from './smtp-connections.ts';

export interface SessionLimits {
  /** Longest a connection may stay open, whatever it does. */
  maxSessionMs: number;
  /**
   * Commands allowed since the last accepted message (or since the connection opened). An accepted RCPT does not
   * count: recipients are bounded per message, and a message to many of them is progress, not talk.
   */
  maxCommandsWithoutMessage: number;
  /** Longest the DATA phase of one message may take, from `354` to the final dot. */
  maxDataMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxSessionMs: 10 * 60_000,
  maxCommandsWithoutMessage: 50,
  maxDataMs: 5 * 60_000,
};

/** The parts of smtp-server's connection object the guard uses (it does not export the class). */
interface Connection {
  session: SMTPServerSession;
  send(code: number, message: string): void;
  close(): void;
  _onCommand(command: Buffer, callback: () => void): void;
}

interface Guarded {
  connection: Connection;
  commands: number;
  /** The client is waiting for the answer to a message (the listener is storing it): do not cut it off now. */
  busy: boolean;
  /** The session ran out of time while busy: closed right after the answer. */
  expired: boolean;
  sessionTimer: NodeJS.Timeout;
  dataTimer: NodeJS.Timeout | undefined;
}

/**
 * Applies `limits` to every session of `server`, and at most `maxPerAddress` connections per client address. Call
 * admit() from onConnect, recipientAccepted() for each RCPT taken, dataStarted() when DATA begins, dataEnded()
 * once the message is in, answered() with its answer, and closed() from onClose.
 */
export class SessionGuard {
  private readonly sessions = new Map<string, Guarded>();
  private readonly perAddress: ConnectionCounter;

  constructor(
    private readonly server: SMTPServer,
    private readonly limits: SessionLimits & { maxPerAddress: number },
    private readonly log: Logger,
  ) {
    this.perAddress = new ConnectionCounter(limits.maxPerAddress);
  }

  /**
   * Admits a new connection (false when its address already holds `maxPerAddress`: answer 421), starts the
   * session's clock and counts its commands from now on.
   */
  admit(session: SMTPServerSession): boolean {
    if (!this.perAddress.open(session)) return false;
    this.opened(session);
    return true;
  }

  private opened(session: SMTPServerSession): void {
    const connection = [...(this.server.connections as Set<Connection>)].find((c) => c.session === session);
    if (!connection) return;
    const state: Guarded = {
      connection,
      commands: 0,
      busy: false,
      expired: false,
      dataTimer: undefined,
      sessionTimer: setTimeout(() => this.expire(session.id), this.limits.maxSessionMs).unref(),
    };
    // smtp-server has no hook per command: its connection's command handler is wrapped instead (every command line
    // passes through it; message lines after DATA do not).
    const handle = connection._onCommand.bind(connection);
    connection._onCommand = (command, callback) => {
      state.commands += 1;
      if (state.commands > this.limits.maxCommandsWithoutMessage) {
        this.log.info(
          { address: session.remoteAddress, commands: state.commands },
          'smtp session closed: too many commands without a message',
        );
        return connection.send(
          421,
          `4.7.0 Too many commands without a message (at most ${this.limits.maxCommandsWithoutMessage}), closing`,
        );
      }
      handle(command, callback);
    };
    this.sessions.set(session.id, state);
  }

  /** A recipient was accepted: its RCPT is not counted among the commands without a message. */
  recipientAccepted(session: SMTPServerSession): void {
    const state = this.sessions.get(session.id);
    if (state) state.commands -= 1;
  }

  /** DATA began: the message must be in within maxDataMs, or `abort` is called and the connection closed. */
  dataStarted(session: SMTPServerSession, abort: () => void): void {
    const state = this.sessions.get(session.id);
    if (!state) return;
    state.dataTimer = setTimeout(() => {
      this.log.info({ address: session.remoteAddress }, 'smtp session closed: the message took too long to arrive');
      abort();
      state.connection.send(
        421,
        `4.4.2 The message took longer than ${Math.round(this.limits.maxDataMs / 1000)} s to arrive, closing`,
      );
    }, this.limits.maxDataMs).unref();
  }

  /** The whole message is in: the listener now decides on it (no limit cuts the client off until the answer). */
  dataEnded(session: SMTPServerSession): void {
    const state = this.sessions.get(session.id);
    if (!state) return;
    clearTimeout(state.dataTimer);
    state.busy = true;
  }

  /**
   * The message was answered; `accepted` starts the command count afresh. Closes a session that ran out of time
   * meanwhile.
   */
  answered(session: SMTPServerSession, accepted: boolean): void {
    const state = this.sessions.get(session.id);
    if (!state) return;
    state.busy = false;
    if (accepted) state.commands = 0;
    if (state.expired) setImmediate(() => this.expire(session.id));
  }

  /** Closes the session's connection now, after the answers already written (a 421 closes by itself). */
  end(session: SMTPServerSession): void {
    this.sessions.get(session.id)?.connection.close();
  }

  closed(session: SMTPServerSession): void {
    this.perAddress.close(session);
    const state = this.sessions.get(session.id);
    if (!state) return;
    clearTimeout(state.sessionTimer);
    clearTimeout(state.dataTimer);
    this.sessions.delete(session.id);
  }

  private expire(id: string): void {
    const state = this.sessions.get(id);
    if (!state) return;
    if (state.busy) {
      state.expired = true;
      return;
    }
    this.log.info({ address: state.connection.session.remoteAddress }, 'smtp session closed: it lasted too long');
    state.connection.send(
      421,
      `4.4.2 Session time limit (${Math.round(this.limits.maxSessionMs / 60_000)} min) reached, closing`,
    );
  }
}
