// Debian's Chromium, headless, driven by playwright-core (never a
// downloaded browser), in a throwaway profile. Shared by the browser and
// bundler suites. Returns { context, close }.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium } from 'playwright-core';

export async function launchChromium() {
  const profileDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
