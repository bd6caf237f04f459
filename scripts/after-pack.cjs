// electron-builder's afterPack hook (electron-builder.yml): flips the fuses declared in
// `electronFuses` with @electron/fuses, every fuse of the wire explicitly, and reads them
// back from the binary, so a build whose fuses are not what the yml says fails here,
// before anything is signed. (electron-builder flips the same values again right before
// signing; flipping is idempotent.) scripts/verify-release checks them once more on the
// finished app.
const path = require('node:path');
const { applyFuses } = require('./release/fuses.cjs');

/** The file whose fuse wire counts: the .app (its Electron Framework) or the executable. */
function electronBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return path.join(appOutDir, `${packager.appInfo.productFilename}.app`);
  if (electronPlatformName === 'win32') return path.join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return path.join(appOutDir, packager.executableName);
}

async function afterPack(context) {
  const binary = electronBinary(context);
  await applyFuses(binary, context.packager.config.electronFuses);
  console.log(`  • fuses applied and read back  file=${binary}`);
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.electronBinary = electronBinary;
