import { describe, expect, it } from 'vitest';
import {
  countConditions,
  fieldClass,
  groupChildren,
  groupMode,
  hasBlanks,
  kindOf,
  negated,
  textToValue,
  valueToText,
} from './filter-model.ts';

describe('the filter builder’s model', () => {
  it('turns typed text into the value a condition sends', () => {
    expect(textToValue('pro', 'data.plan', 'equals')).toBe('pro');
    expect(textToValue('28', 'data.age', 'greaterThan')).toBe(28);
    expect(textToValue('"007"', 'data.code', 'equals')).toBe('007');
    expect(textToValue('true', 'data.vip', 'equals')).toBe(true);
    expect(textToValue('28', 'email', 'contains')).toBe('28');
    expect(textToValue('a, b ,, c', 'email', 'in')).toEqual(['a', 'b', 'c']);
    expect(textToValue('1, 2', 'data.n', 'notIn')).toEqual([1, 2]);
    expect(textToValue('false', 'subscribed', 'equals')).toBe(false);
    expect(textToValue(' 7d ', 'createdAt', 'within')).toBe('7d');
    expect(valueToText(['a', 'b'])).toBe('a, b');
    expect(valueToText(undefined)).toBe('');
  });

  it('reads every kind of node of the filter language', () => {
    const filter = {
      all: [
        { field: 'email', operator: 'contains', value: '@' },
        { not: { event: 'x', operator: 'performed' } },
        {
          any: [
            { segment: 's', operator: 'member' },
            { activity: 'opened', operator: 'performed' },
          ],
        },
      ],
    };
    expect(groupMode(filter)).toBe('all');
    expect(groupChildren(filter)).toHaveLength(3);
    expect(negated(filter.all[1]!)).toEqual({ event: 'x', operator: 'performed' });
    expect(negated(filter.all[0]!)).toBeNull();
    expect(countConditions(filter)).toBe(4);
    expect(['event', 'segment', 'activity', 'topic', 'field'].map((k) => kindOf({ [k]: 'x' }))).toEqual([
      'event',
      'segment',
      'activity',
      'topic',
      'field',
    ]);
    expect(['email', 'subscribed', 'updatedAt', 'data.a.b'].map(fieldClass)).toEqual([
      'email',
      'subscribed',
      'date',
      'data',
    ]);
  });

  it('tells a filter with a blank to fill from one that is complete', () => {
    expect(hasBlanks({ all: [] })).toBe(false);
    expect(hasBlanks({ all: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] })).toBe(false);
    expect(hasBlanks({ all: [{ field: 'data.plan', operator: 'exists' }] })).toBe(false);
    expect(hasBlanks({ all: [{ field: 'email', operator: 'contains', value: '' }] })).toBe(true);
    expect(hasBlanks({ any: [{ not: { segment: '', operator: 'member' } }] })).toBe(true);
    expect(hasBlanks({ all: [{ field: 'email', operator: 'in', value: [] }] })).toBe(true);
    expect(hasBlanks({ all: [{ field: 'data.plan', operator: 'equals' }] })).toBe(true);
    expect(hasBlanks({ all: [{ event: '', operator: 'performed' }] })).toBe(true);
  });
});
