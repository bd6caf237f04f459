import pkg from '../../../package.json';

/** The app's version, from package.json (bundled at build time). */
export const APP_VERSION: string = pkg.version;
