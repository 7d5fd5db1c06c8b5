import { describe, expect, it } from 'vitest';
import { blankRule, describeMatch, fieldPath, move, toRoutingBody, toRoutingForm } from './routing-model.ts';

describe('the routing form', () => {
  it('round-trips the saved routing, leaving blank conditions and empty fallbacks out', () => {
    const routing = {
      defaultTransportId: 'default',
      rules: [
        {
          match: { stream: 'marketing' as const, recipientProvider: 'gmail' as const },
          transportId: 'a',
          fallbackIds: ['b'],
        },
        { match: { tag: 'vip' }, transportId: 'b' },
      ],
    };
    expect(toRoutingBody(toRoutingForm(routing))).toEqual(routing);
    const form = { defaultTransportId: 'a', rules: [{ ...blankRule('b'), senderDomain: '  news.example.com ' }] };
    expect(toRoutingBody(form)).toEqual({
      defaultTransportId: 'a',
      rules: [{ match: { senderDomain: 'news.example.com' }, transportId: 'b' }],
    });
  });

  it('moves a rule up or down, and leaves the list as it is at either end', () => {
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('names fields the same with brackets or dots', () => {
    expect(fieldPath('rules[1].fallbackIds[0]')).toBe('rules.1.fallbackIds.0');
    expect(fieldPath('rules.1.transportId')).toBe('rules.1.transportId');
    expect(fieldPath('defaultTransportId')).toBe('defaultTransportId');
  });

  it('says what a rule matches in words', () => {
    expect(describeMatch({})).toBe('every email');
    expect(describeMatch({ stream: 'marketing', recipientProvider: 'gmail', tag: 'vip' })).toBe(
      'marketing mail, to gmail mailboxes, tagged vip',
    );
  });
});
