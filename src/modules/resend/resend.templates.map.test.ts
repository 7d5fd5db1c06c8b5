import { describe, expect, it } from 'vitest';
import { checkedDeclarations, liquidOf, variablesOf, withFallbacks } from './resend.templates.map.ts';

describe('liquidOf', () => {
  it("reads Resend's variables as Liquid, each declared fallback written where the variable is used", () => {
    const declared = checkedDeclarations([
      { key: 'PRODUCT', type: 'string', fallback_value: 'a "good" item' },
      { key: 'PRICE', type: 'number', fallback_value: 25 },
      { key: 'NOTE', type: 'string' },
    ]);
    expect(liquidOf('{{{PRODUCT}}} for {{{ PRICE }}}: {{{NOTE}}}, {{{FIRST_NAME|you}}} {{{OTHER}}}', declared)).toBe(
      '{{ PRODUCT | default: "a \\"good\\" item" }} for {{ PRICE | default: 25 }}: {{ NOTE }}, ' +
        '{{ firstName | default: "you" }} {{ OTHER }}',
    );
  });
});

describe('withFallbacks', () => {
  it('replaces the fallbacks of declared variables only, and removes one declared without', () => {
    const liquid = '{{ A | default: "x" }} {{ B | default: 1 }} {{ C }} {{ user.name }} {{ D | upcase }}';
    const declared = checkedDeclarations([
      { key: 'A', type: 'string', fallback_value: null },
      { key: 'C', type: 'number', fallback_value: 3 },
    ]);
    expect(withFallbacks(liquid, declared)).toBe(
      '{{ A }} {{ B | default: 1 }} {{ C | default: 3 }} {{ user.name }} {{ D | upcase }}',
    );
  });
});

describe('variablesOf', () => {
  it('lists the plain variables in order of first use, typed by their fallback, built-in names left out', () => {
    expect(
      variablesOf([
        'Hi {{ firstName }} {{ A | default: "a\\"b" }}',
        "{{ B | default: 2.5 }} {{ A }} {{ C | default: 'c' }} {{ D }} {{ email }} {{ unsubscribeUrl }}",
      ]),
    ).toEqual([
      { key: 'A', type: 'string', fallback: 'a"b' },
      { key: 'B', type: 'number', fallback: 2.5 },
      { key: 'C', type: 'string', fallback: 'c' },
      { key: 'D', type: 'string', fallback: null },
    ]);
  });
});

describe('checkedDeclarations', () => {
  it('refuses bad names, reserved names, twice-declared names and fallbacks of the wrong type', () => {
    const problem = (variables: Parameters<typeof checkedDeclarations>[0]) => {
      try {
        checkedDeclarations(variables);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problem([{ key: '1A', type: 'string' }])).toContain('variables.0.key');
    expect(problem([{ key: 'email', type: 'string' }])).toContain('reserved');
    expect(problem([{ key: 'Unsubscribe_Url', type: 'string' }])).toContain('reserved');
    expect(problem([{ key: 'unsubscribeUrl', type: 'string' }])).toContain('reserved');
    expect(
      problem([
        { key: 'A', type: 'string' },
        { key: 'A', type: 'number' },
      ]),
    ).toContain('variables.1.key');
    expect(problem([{ key: 'N', type: 'number', fallback_value: '5' }])).toContain('variables.0.fallback_value');
    expect(problem([{ key: 'N', type: 'number', fallback_value: 1e300 }])).toContain('exponent');
    expect(problem([{ key: 'N', type: 'number', fallback_value: -5.5 }])).toBeNull();
  });
});
