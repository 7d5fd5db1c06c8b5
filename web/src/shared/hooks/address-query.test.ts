import { describe, expect, it } from 'vitest';
import { cursorsOf, popCursor, pushCursor, readFilters, setFilterIn } from './address-query.ts';

const SPEC = { search: null, status: ['SENT', 'BOUNCED'] } as const;

describe('a list’s state in the query string', () => {
  it('reads the filters it knows, and drops a value a filter does not take', () => {
    expect(readFilters(SPEC, new URLSearchParams('search=%20ada%20&status=SENT&other=1'))).toEqual({
      search: 'ada',
      status: 'SENT',
    });
    expect(readFilters(SPEC, new URLSearchParams('status=sent'))).toEqual({ search: '', status: '' });
  });

  it('keeps the cursors of the pages before, so Previous can go back', () => {
    const params = new URLSearchParams('status=SENT');
    pushCursor(params, 'a');
    pushCursor(params, 'b');
    expect(params.toString()).toBe('status=SENT&cursor=a&cursor=b');
    popCursor(params);
    expect(cursorsOf(params)).toEqual(['a']);
    popCursor(params);
    expect(params.toString()).toBe('status=SENT');
  });

  it('starts again at the first page when a filter changes, and removes an emptied filter', () => {
    const params = new URLSearchParams('status=SENT&cursor=a&cursor=b');
    setFilterIn(params, 'search', 'ada');
    expect(params.toString()).toBe('status=SENT&search=ada');
    setFilterIn(params, 'status', '');
    expect(params.toString()).toBe('search=ada');
  });
});
