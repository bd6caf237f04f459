import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src-main/core/shared/errorMessage';

describe('errorMessage', () => {
  it('reads an Error, an error-like object, a string and other values', () => {
    expect(errorMessage(new TypeError('x is undefined'))).toBe('x is undefined');
    expect(errorMessage({ message: 'from another realm' })).toBe('from another realm');
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(null)).toBe('null');
    expect(errorMessage(undefined)).toBe('undefined');
  });

  it('never throws, whatever was thrown', () => {
    const hostileToString = {
      toString() {
        throw new Error('no');
      },
    };
    const hostileMessage = Object.defineProperty(new Error(), 'message', {
      get() {
        throw new Error('no');
      },
    });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(errorMessage(hostileToString)).toBe('[object Object]');
    expect(errorMessage(hostileMessage)).toBe('[object Error]');
    expect(errorMessage(Object.create(null))).toBe('[object Object]');
    expect(errorMessage(proxy)).toBe('an unprintable value');
  });
});
