import { describe, expect, it } from 'vitest';
import type { Transport } from '../../shared/api/types.ts';
import { toFormValues, toNewTransport, toTransportChange } from './transport-form.ts';

const saved: Transport = {
  id: 't1',
  name: 'Relay',
  type: 'smtp',
  builtIn: false,
  config: { host: 'smtp.example.com', port: 587, secure: false, username: 'app', hasPassword: true },
  maxPerSecond: 10,
  maxConnections: null,
  state: 'HEALTHY',
  since: null,
  lastError: null,
  lastErrorAt: null,
  retryAt: null,
  failovers: 0,
  lastFailoverAt: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
};

describe('the transport form', () => {
  it('makes the body of a new SMTP transport, blank optional fields left out', () => {
    const values = toFormValues();
    values.name = ' Relay ';
    values.smtp = { ...values.smtp, host: 'smtp.example.com', port: '2525' };
    expect(toNewTransport(values)).toEqual({
      type: 'smtp',
      name: 'Relay',
      config: { host: 'smtp.example.com', port: 2525, secure: false },
    });
  });

  it('makes the body of a new SES transport with its secret and topics', () => {
    const values = { ...toFormValues(), name: 'SES', type: 'ses' as const, maxConnections: '4' };
    values.ses = { region: 'eu-west-1', accessKeyId: 'AKIA123', secretAccessKey: 's3cret', snsTopicArns: 'a\nb' };
    expect(toNewTransport(values)).toEqual({
      type: 'ses',
      name: 'SES',
      config: { region: 'eu-west-1', accessKeyId: 'AKIA123', secretAccessKey: 's3cret', snsTopicArns: ['a', 'b'] },
      maxConnections: 4,
    });
  });

  it('reads a saved transport back without its secret, and an edit keeps the saved secret unless one is typed', () => {
    const values = toFormValues(saved);
    expect(values.smtp).toEqual({
      host: 'smtp.example.com',
      port: '587',
      secure: false,
      username: 'app',
      password: '',
    });
    expect(toTransportChange(values)).toEqual({
      name: 'Relay',
      config: { host: 'smtp.example.com', port: 587, secure: false, username: 'app' },
      maxPerSecond: 10,
      maxConnections: null,
    });
    values.smtp.username = '';
    values.smtp.password = 'new one';
    expect(toTransportChange(values).config).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      username: null,
      password: 'new one',
    });
  });
});
