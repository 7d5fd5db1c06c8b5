import { describe, expect, it } from 'vitest';
import { countSteps, type Step } from './steps.ts';

describe('countSteps', () => {
  it('counts the steps inside conditions and waits for an event, at any depth', () => {
    const send: Step = { type: 'SEND_EMAIL', templateId: 't' };
    const steps: Step[] = [
      send,
      {
        type: 'CONDITION',
        if: { all: [] },
        then: [send, { type: 'WAIT_FOR_EVENT', event: 'paid', timeout: '1d', onEvent: [send], onTimeout: [send] }],
        else: [{ type: 'EXIT' }],
      },
      { type: 'DELAY', duration: '1d' },
    ];
    expect(countSteps([])).toBe(0);
    expect(countSteps([send])).toBe(1);
    expect(countSteps(steps)).toBe(8);
  });
});
