/**
 * The message of anything thrown, for a sentence that names the problem. An Error (or an
 * error-like object from another realm) gives its message; anything else its string
 * form. It never throws itself: a value whose `message` getter or `toString` throws is
 * described by its type (`[object Object]`), so reporting an error can never become a second error.
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
    return String(error);
  } catch {
    return unprintable(error);
  }
}

function unprintable(error: unknown): string {
  try {
    // `[object Object]`, `[object Error]`: the type, which is all such a value can tell.
    return Object.prototype.toString.call(error);
  } catch {
    // A revoked Proxy refuses even Object.prototype.toString.
    return 'an unprintable value';
  }
}
