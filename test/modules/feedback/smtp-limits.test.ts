// The feedback receiver faces the internet on port 25: connections are bounded in total and per client address
// (FEEDBACK_SMTP_MAX_CLIENTS, FEEDBACK_SMTP_MAX_CLIENTS_PER_ADDRESS). Real TCP connections from several loopback
// addresses (Linux routes all of 127/8 to lo), a real SMTP client for the report that gets in.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { startFeedbackReceiver, type FeedbackReceiver } from '../../../src/modules/feedback/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { dsn } from '../../support/reports.ts';
import { until } from '../../support/until.ts';

/** A raw SMTP connection: its first reply line, and whether the server has closed it since. */
interface Connection {
  greeting: string;
  closed: Promise<void>;
  quit(): Promise<void>;
}

const open: net.Socket[] = [];

function connect(port: number, localAddress: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    open.push(socket);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      socket.resume(); // read what follows (221, the FIN) so 'close' can fire
      resolve({
        greeting: buffer.slice(0, end),
        closed,
        quit: () => {
          socket.end('QUIT\r\n');
          return closed;
        },
      });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

describe('feedback receiver connection limits', () => {
  let m: MailFixture;
  let receiver: FeedbackReceiver;
  let auth: { authorization: string };

  beforeAll(async () => {
    m = await startMailFixture({
      env: {
        RETURN_PATH_HOST: 'feedback.herald.test',
        FEEDBACK_SMTP_MAX_CLIENTS: '4',
        FEEDBACK_SMTP_MAX_CLIENTS_PER_ADDRESS: '2',
      },
    });
    auth = (await m.verifiedDomain('example.test')).auth;
    receiver = await startFeedbackReceiver(m.t.ctx, 0);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    await receiver.close();
    await m.close();
  });

  it(
    'refuses a third connection from one address and a fifth in all with 421 and ' +
      'closes them; other clients still get in',
    async () => {
      const res = await m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: auth,
        payload: { to: 'gone@dest.test', from: 'news@example.test', subject: 'Hi', body: '<p>Hi</p>' },
      });
      const id = res.json().data.emails[0].email as string;
      await m.waitForStatus(auth, id, ['SENT']);
      const returnPath = m.sink.messages.find((msg) => msg.to.includes('gone@dest.test'))!.from;

      const a1 = await connect(receiver.port, '127.0.0.1');
      const a2 = await connect(receiver.port, '127.0.0.1');
      expect([a1.greeting, a2.greeting]).toEqual([expect.stringMatching(/^220 /), expect.stringMatching(/^220 /)]);
      const a3 = await connect(receiver.port, '127.0.0.1');
      expect(a3.greeting).toMatch(/^421 .*Too many connections from your address/);
      await a3.closed;

      // Another address gets in while the first holds all it may.
      const b1 = await connect(receiver.port, '127.0.0.2');
      expect(b1.greeting).toMatch(/^220 /);
      const c1 = await connect(receiver.port, '127.0.0.3');
      expect(c1.greeting).toMatch(/^220 /);
      // Four open: the total is reached, whoever asks.
      const d1 = await connect(receiver.port, '127.0.0.4');
      expect(d1.greeting).toMatch(/^421 .*Too many connected clients/);
      await d1.closed;

      // A closed connection gives its slot back: a real report from the first address is then received.
      await a1.quit();
      const client = nodemailer.createTransport({
        host: '127.0.0.1',
        port: receiver.port,
        secure: false,
        ignoreTLS: true,
        localAddress: '127.0.0.1',
      });
      await until(
        () =>
          client
            .sendMail({
              envelope: { from: 'mailer-daemon@mx.dest.test', to: [returnPath] },
              raw: dsn({ to: returnPath, recipient: 'gone@dest.test', status: '5.1.1' }),
            })
            .then(
              () => true,
              (error: { responseCode?: number }) => {
                if (error.responseCode !== 421) throw error;
                return false; // the server has not seen the close yet
              },
            ),
        'a slot for 127.0.0.1',
      );
      expect((await m.waitForStatus(auth, id, ['BOUNCED'])).status).toBe('BOUNCED');
      await Promise.all([a2.quit(), b1.quit(), c1.quit()]);
    },
  );
});
