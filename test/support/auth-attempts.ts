// Sign-ins through an AuthThrottle as the tests make them: 'ok' when one was let through, else the answer's status.
import type { AuthThrottle } from '../../src/auth/throttle.ts';

/** One sign-in of `user` from `address` that WordPress refuses (when it was let through at all). */
export async function fail(g: AuthThrottle, address: string, user: string): Promise<'ok' | number> {
  try {
    await g.attempt(address, user);
    return 'ok';
  } catch (err) {
    return (err as { status: number }).status;
  }
}

/** A sign-in WordPress accepts. */
export async function succeed(g: AuthThrottle, address: string, user: string): Promise<'ok' | number> {
  try {
    await (await g.attempt(address, user)).accepted();
    return 'ok';
  } catch (err) {
    return (err as { status: number }).status;
  }
}
