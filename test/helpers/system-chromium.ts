import { chromium, type Browser } from 'playwright-core';

/** The system Chromium (`/usr/bin/chromium`, or CHROME_PATH), software WebGL; Playwright's download fails here. */
export function launchSystemChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}
