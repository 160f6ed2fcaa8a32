// Debian's chromium through playwright-core, headless, as the browser tests launch it.
import { chromium, type Browser } from 'playwright-core';

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
