// Debian's headless Chromium for the tests that drive a page. Playwright bounds each navigation and each action by 30 s
// of wall time: its contexts here take that × the lanes' slack (test/slack.ts), as every other hang guard does; the
// full suite's load once timed a page load of the API reference out at the bare 30 s.
import { execFileSync } from 'node:child_process';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';
import { guard } from './slack.ts';

export async function launchChromium(): Promise<Browser> {
  const executablePath = execFileSync('bash', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

/** A browser context whose navigations and actions wait up to 30 s × the slack. */
export async function newContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(guard(30_000));
  return context;
}

/** A page in a context of its own (as `browser.newPage()`), with the context's timeouts above. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  return (await newContext(browser, options)).newPage();
}
