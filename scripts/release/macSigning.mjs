// How the macOS app is signed, from the environment (electron-builder's own variables).
//  - CSC_LINK (a .p12 of a Developer ID Application certificate, with CSC_KEY_PASSWORD) or
//    CSC_NAME (an identity already in the keychain): signed with it, with the hardened
//    runtime and the JIT entitlement of electron-builder.yml, and notarized when the
//    APPLE_* variables of one of notarytool's methods are set (APPLE_API_KEY +
//    APPLE_API_KEY_ID + APPLE_API_ISSUER, or APPLE_ID + APPLE_APP_SPECIFIC_PASSWORD +
//    APPLE_TEAM_ID).
//  - otherwise: ad-hoc ("-"), which arm64 macOS needs to run the app at all. Without a Team
//    ID the hardened runtime's library validation would refuse Electron's own framework,
//    so it is off for such a build, and there is nothing to notarize.

const NOTARY_SETS = [
  ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
  ['APPLE_KEYCHAIN', 'APPLE_KEYCHAIN_PROFILE'],
];

/** { mode, notarize, override (merged over electron-builder.yml), summary (one line) } */
export function macSigning(env = process.env) {
  const identity = Boolean(env.CSC_LINK || env.CSC_NAME);
  if (!identity) {
    return {
      mode: 'ad-hoc',
      notarize: false,
      override: { mac: { identity: '-', hardenedRuntime: false, notarize: false } },
      summary: 'macOS: ad-hoc signature (no CSC_LINK or CSC_NAME); Gatekeeper will ask users to allow the app once (README: Install)',
    };
  }
  const notarize = NOTARY_SETS.some((set) => set.every((name) => env[name]));
  return {
    mode: 'developer-id',
    notarize,
    override: notarize ? {} : { mac: { notarize: false } },
    summary: `macOS: signed with ${env.CSC_NAME ? `"${env.CSC_NAME}"` : 'the certificate in CSC_LINK'}, hardened runtime, ${notarize ? 'notarized' : 'not notarized (set APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER to notarize)'}`,
  };
}
