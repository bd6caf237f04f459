// The fuses of electron-builder.yml (`electronFuses`) as @electron/fuses sees them, shared
// by the afterPack hook (which flips them) and scripts/verify-release (which reads them
// back from the packaged binary). CommonJS because electron-builder require()s the hook.
const { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } = require('@electron/fuses');

// electron-builder's option names, in the order of the V1 fuse wire.
const FUSE_NAMES = {
  runAsNode: FuseV1Options.RunAsNode,
  enableCookieEncryption: FuseV1Options.EnableCookieEncryption,
  enableNodeOptionsEnvironmentVariable: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
  enableNodeCliInspectArguments: FuseV1Options.EnableNodeCliInspectArguments,
  enableEmbeddedAsarIntegrityValidation: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
  onlyLoadAppFromAsar: FuseV1Options.OnlyLoadAppFromAsar,
  loadBrowserProcessSpecificV8Snapshot: FuseV1Options.LoadBrowserProcessSpecificV8Snapshot,
  grantFileProtocolExtraPrivileges: FuseV1Options.GrantFileProtocolExtraPrivileges,
};

// The bytes @electron/fuses writes into the wire (its FuseState enum: '0' and '1').
const DISABLE = 0x30;
const ENABLE = 0x31;
const REMOVED = 0x72;

/** The fuse config @electron/fuses takes, every fuse explicit (a new one fails the build). */
function fuseConfigFrom(electronFuses) {
  const config = { version: FuseVersion.V1, strictlyRequireAllFuses: true };
  for (const [name, index] of Object.entries(FUSE_NAMES)) {
    const value = electronFuses?.[name];
    if (typeof value !== 'boolean') throw new Error(`electron-builder.yml: electronFuses.${name} must be true or false (every fuse is set explicitly)`);
    config[index] = value;
  }
  const unknown = Object.keys(electronFuses ?? {}).filter((name) => !(name in FUSE_NAMES) && name !== 'resetAdHocDarwinSignature');
  if (unknown.length) throw new Error(`electron-builder.yml: electronFuses has unknown fuses: ${unknown.join(', ')}`);
  return config;
}

/**
 * Compares the wire read from a binary (getCurrentFuseWire) with what the yml asks for.
 * Returns one message per fuse that differs; a fuse the binary has removed counts as
 * set only when it was asked to be off.
 */
function compareWire(wire, electronFuses) {
  const problems = [];
  for (const [name, index] of Object.entries(FUSE_NAMES)) {
    const want = electronFuses[name];
    const have = wire[index];
    if (have === undefined) {
      problems.push(`${name}: not in this Electron's fuse wire`);
      continue;
    }
    if (have === REMOVED) {
      if (want) problems.push(`${name}: removed from this Electron, cannot be on`);
      continue;
    }
    const actual = have === ENABLE ? true : have === DISABLE ? false : null;
    if (actual !== want) problems.push(`${name}: is ${actual === null ? `an unknown state (0x${have.toString(16)})` : actual ? 'on' : 'off'}, should be ${want ? 'on' : 'off'}`);
  }
  return problems;
}

/** Flips the fuses of the Electron binary at `binaryPath`, then reads them back. */
async function applyFuses(binaryPath, electronFuses) {
  await flipFuses(binaryPath, fuseConfigFrom(electronFuses));
  const problems = compareWire(await getCurrentFuseWire(binaryPath), electronFuses);
  if (problems.length) throw new Error(`fuses of ${binaryPath} read back wrong: ${problems.join('; ')}`);
}

module.exports = { FUSE_NAMES, fuseConfigFrom, compareWire, applyFuses, getCurrentFuseWire, ENABLE, DISABLE };
