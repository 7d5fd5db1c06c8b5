import { describe, expect, it } from 'vitest';
import { splitTrackData } from './track.service.ts';

describe('splitTrackData', () => {
  it('unwraps {value, persistent} values and keeps persistent: false ones off the contact', () => {
    expect(
      splitTrackData({
        plain: 1,
        temp: { value: 'x', persistent: false },
        kept: { value: [1], persistent: true },
        notAWrapper: { value: 1, persistent: 'no' },
        alsoNot: { value: 1, persistent: false, extra: true },
        gone: null,
      }),
    ).toEqual({
      event: {
        plain: 1,
        temp: 'x',
        kept: [1],
        notAWrapper: { value: 1, persistent: 'no' },
        alsoNot: { value: 1, persistent: false, extra: true },
        gone: null,
      },
      contact: {
        plain: 1,
        kept: [1],
        notAWrapper: { value: 1, persistent: 'no' },
        alsoNot: { value: 1, persistent: false, extra: true },
        gone: null,
      },
    });
  });
});
