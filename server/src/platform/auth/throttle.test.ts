import { describe, expect, it } from 'vitest';
import { delayAfter, THROTTLE_POLICIES, throttleAddress, throttleKeys } from './throttle';

describe('throttle keys', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['0:0:0:0:0:ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ])('counts %s as %s', (ip, expected) => {
    expect(throttleAddress(ip)).toBe(expected);
  });

  it('names the pair, the account and the address of an attempt', () => {
    expect(throttleKeys('tuser10', '192.0.2.7')).toEqual([
      { kind: 'pair', key: 'pair:192.0.2.7|tuser10' },
      { kind: 'account', key: 'account:tuser10' },
      { kind: 'address', key: 'address:192.0.2.7' },
    ]);
    expect(throttleKeys('sso:idp', '192.0.2.7', { accountWide: false }).map((k) => k.kind)).toEqual(
      ['pair', 'address'],
    );
  });
});

describe('delays', () => {
  it('start at the threshold, double, and stop at the cap', () => {
    const { pair, account } = THROTTLE_POLICIES;
    expect(delayAfter(pair.threshold - 1, pair)).toBe(0);
    expect(delayAfter(pair.threshold, pair)).toBe(1_000);
    expect(delayAfter(pair.threshold + 3, pair)).toBe(8_000);
    expect(delayAfter(pair.threshold + 1_000, pair)).toBe(pair.maxDelayMs);
    expect(delayAfter(account.threshold - 1, account)).toBe(0);
    expect(delayAfter(account.threshold, account)).toBe(1_000);
  });

  it('keep one address well below the account-wide limit within its window', () => {
    // The fastest one address can go at one account: bursts of `threshold` guesses plus k
    // delayed ones (waits 1 s, 2 s, …), each followed by a quiet window that resets its counters.
    const { pair, account } = THROTTLE_POLICIES;
    let best = 0;
    for (let k = 0; k < 20; k++) {
      let waits = 0;
      for (let i = 0; i < k; i++) waits += delayAfter(pair.threshold + i, pair);
      const cycleMs = waits + pair.windowMs;
      // Guesses within one window of the account counter, counting a partial last cycle whole.
      const perWindow = Math.ceil(account.windowMs / cycleMs) * (pair.threshold + k);
      best = Math.max(best, perWindow);
    }
    expect(best).toBeLessThan(account.threshold);
  });
});
