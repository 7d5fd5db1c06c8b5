import { describe, expect, it } from 'vitest';
import { toResendEvent } from './webhooks.resend-format.ts';

const at = new Date('2026-11-30T10:00:00.000Z');
const email = {
  emailId: 'e1',
  to: 'ann@dest.test',
  from: 'hello@acme.test',
  subject: 'Hi',
  source: { type: 'CAMPAIGN', id: 'c1' },
  contactId: 'k1',
  messageId: '<e1@acme.test>',
  tags: [{ name: 'kind', value: 'welcome' }],
  transportId: 'default',
  provider: 'gmail',
};
const base = {
  broadcast_id: 'c1',
  created_at: at.toISOString(),
  email_id: 'e1',
  message_id: '<e1@acme.test>',
  from: 'hello@acme.test',
  to: ['ann@dest.test'],
  subject: 'Hi',
  tags: { kind: 'welcome' },
};

describe("Herald's events in Resend's names and bodies", () => {
  it('gives an email event the email fields, and a deferral the name email.delivery_delayed', () => {
    expect(toResendEvent({ type: 'email.deferred', data: { ...email, error: 'busy' }, createdAt: at })).toEqual({
      type: 'email.delivery_delayed',
      payload: { type: 'email.delivery_delayed', created_at: at.toISOString(), data: base },
    });
  });

  it("adds a bounce's, a click's and a failure's details in Resend's words", () => {
    const bounced = toResendEvent({
      type: 'email.bounced',
      data: { ...email, code: '5.1.1', diagnostic: '550 no such user', suppressed: true },
      createdAt: at,
    });
    expect(bounced!.payload.data).toEqual({
      ...base,
      bounce: { type: 'Permanent', subType: 'Suppressed', message: '550 no such user' },
    });
    const clicked = toResendEvent({ type: 'email.clicked', data: { ...email, url: 'https://a.test/' }, createdAt: at });
    expect(clicked!.payload.data).toEqual({ ...base, click: { link: 'https://a.test/', timestamp: at.toISOString() } });
    const failed = toResendEvent({ type: 'email.failed', data: { ...email, error: 'no route' }, createdAt: at });
    expect(failed!.payload.data).toEqual({ ...base, failed: { reason: 'no route' } });
  });

  it('shapes contacts, domains and received mail', () => {
    const contact = toResendEvent({
      type: 'contact.updated',
      data: { contactId: 'k1', email: 'ann@dest.test', subscribed: false, data: { firstName: 'Ann', plan: 'pro' } },
      createdAt: at,
    });
    expect(contact!.payload.data).toEqual({
      id: 'k1',
      email: 'ann@dest.test',
      first_name: 'Ann',
      last_name: null,
      unsubscribed: true,
    });
    const domain = toResendEvent({
      type: 'domain.failed',
      data: { domainId: 'd1', domain: 'acme.test', status: 'TEMPORARY_FAILURE', records: [] },
      createdAt: at,
    });
    expect(domain).toMatchObject({ type: 'domain.updated', payload: { data: { status: 'temporary_failure' } } });
    const received = toResendEvent({
      type: 'email.received',
      data: { inboundId: 'i1', to: ['in@acme.test'], subject: 'Re', from: 'bo@dest.test', attachments: 1 },
      createdAt: at,
    });
    expect(received!.payload.data).toEqual({
      email_id: 'i1',
      created_at: at.toISOString(),
      from: 'bo@dest.test',
      to: ['in@acme.test'],
      received_for: ['in@acme.test'],
      subject: 'Re',
    });
  });

  it('leaves out the events Resend has no name for', () => {
    for (const type of ['email.queued', 'email.cancelled', 'contact.unsubscribed', 'campaign.sent'] as const)
      expect(toResendEvent({ type, data: email, createdAt: at })).toBeNull();
  });
});
