import { chromium, type Browser } from 'playwright-core';
import { SYSTEM_CHROMIUM } from './system-chromium-options.mjs';

/** The system Chromium, launched as the browser tests launch it (web-test-runner.config.mjs). */
export function launchSystemChromium(): Promise<Browser> {
  return chromium.launch(SYSTEM_CHROMIUM);
}
