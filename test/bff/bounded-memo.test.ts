import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../bff/services/bounded-memo.js';

/** The BFF's hot-path memory of parsed strings (bff/services/bounded-memo.ts): strangers' headers must not grow it without bound. */
describe('boundedMemo', () => {
  const counted = (options?: Parameters<typeof boundedMemo>[1]) => {
    const calls: string[] = [];
    const memo = boundedMemo((input) => {
      calls.push(input);
      return input === 'none' ? undefined : input.length;
    }, options);
    return { memo, calls };
  };

  it('computes each argument once, undefined answers included', () => {
    const { memo, calls } = counted();
    expect([memo('abc'), memo('abc'), memo('none'), memo('none')]).toEqual([3, 3, undefined, undefined]);
    expect(calls).toEqual(['abc', 'none']);
  });

  it('forgets everything once it holds `max` arguments, then remembers again', () => {
    const { memo, calls } = counted({ max: 3 });
    for (const input of ['a', 'b', 'c', 'a']) memo(input);
    expect(calls).toEqual(['a', 'b', 'c']);
    memo('d'); // full: starts afresh with d
    memo('a');
    memo('d');
    expect(calls).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('never keeps an argument longer than `maxLength`', () => {
    const { memo, calls } = counted({ maxLength: 8 });
    const long = 'x'.repeat(9);
    expect([memo(long), memo(long), memo('short'), memo('short')]).toEqual([9, 9, 5, 5]);
    expect(calls).toEqual([long, long, 'short']);
  });
});
