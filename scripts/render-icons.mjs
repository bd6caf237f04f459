#!/usr/bin/env node
// Renders every app icon from the one source image, resources/icon.svg:
//   resources/icon.png            1024 px (electron-builder's default icon, the README's)
//   resources/icons/NxN.png       the Linux icon set (AppImage and deb), 16 to 1024 px
//   resources/icon.icns           macOS, PNG-compressed entries written here (no iconutil,
//                                 no download of electron-builder's icon toolset)
// Run after editing the SVG: `node scripts/render-icons.mjs`; commit the outputs.
// Uses Debian's Chromium through playwright-core (CHROMIUM_PATH overrides /usr/bin/chromium).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { icnsFromPngs, ICNS_TYPES } from './release/icns.mjs';

const resources = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources');
const SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];

const svg = fs.readFileSync(path.join(resources, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const pngs = new Map();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size });
    // Chromium rasterises the SVG at the target size (no downscaling of a large bitmap).
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img width="${size}" height="${size}" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body></html>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    pngs.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
  }
  fs.mkdirSync(path.join(resources, 'icons'), { recursive: true });
  for (const [size, png] of pngs) fs.writeFileSync(path.join(resources, 'icons', `${size}x${size}.png`), png);
  fs.writeFileSync(path.join(resources, 'icon.png'), pngs.get(1024));
  fs.writeFileSync(path.join(resources, 'icon.icns'), icnsFromPngs(ICNS_TYPES.map(({ type, pixels }) => ({ type, png: pngs.get(pixels) }))));
  console.log(`rendered ${SIZES.join(', ')} px, icon.png and icon.icns into ${resources}`);
} finally {
  await browser.close();
}
