import { describe, expect, it } from 'vitest';
import { isTrustedSnsUrl } from './feedback.sns.ts';

describe('SNS certificate URLs (production rule)', () => {
  const strict = { extraHosts: [] };
  it('admits only https URLs on sns.<region>.amazonaws.com', () => {
    expect(
      isTrustedSnsUrl('https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem', strict, 'cert'),
    ).toBe(true);
    expect(
      isTrustedSnsUrl('https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem', strict, 'cert'),
    ).toBe(true);
    expect(isTrustedSnsUrl('http://sns.us-east-1.amazonaws.com/x.pem', strict, 'cert')).toBe(false);
    expect(isTrustedSnsUrl('https://sns.us-east-1.amazonaws.com.evil.test/x.pem', strict, 'cert')).toBe(false);
    expect(isTrustedSnsUrl('https://evil.test/sns.us-east-1.amazonaws.com/x.pem', strict, 'cert')).toBe(false);
    expect(isTrustedSnsUrl('https://user@sns.us-east-1.amazonaws.com/x.pem', strict, 'cert')).toBe(false);
    expect(isTrustedSnsUrl('https://sns.us-east-1.amazonaws.com:8443/x.pem', strict, 'cert')).toBe(false);
    expect(isTrustedSnsUrl('https://sns.us-east-1.amazonaws.com/x.txt', strict, 'cert')).toBe(false);
    expect(
      isTrustedSnsUrl('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription', strict, 'subscribe'),
    ).toBe(true);
    expect(isTrustedSnsUrl('not a url', strict, 'cert')).toBe(false);
  });
});
