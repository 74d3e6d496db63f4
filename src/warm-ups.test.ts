import { describe, expect, it, vi } from 'vitest';
import { warmFetch } from './warm-ups.ts';

const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

describe('warmFetch', () => {
  it('makes one request through fetch to a server of its own, and leaves no server listening', async () => {
    const before = servers();
    await expect(warmFetch()).resolves.toBe(undefined);
    // Handles close a turn or two after the server's close callback.
    await vi.waitFor(() => expect(servers()).toBe(before), { timeout: 1000 });
  });
});
