import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest, ManifestSigningKey } from './manifest';
import { errorMessage } from '../shared/errorMessage';

/**
 * One ed25519 key per installation signs its exports. The digest alone cannot tell an
 * original from a forgery whose author re-hashed every file and the manifest; a
 * signature can, as long as the private key stays in the data root (mode 0600).
 */
export const SIGNING_KEY_FILE = 'export-signing-key.pem';

/** `SHA256:` and the unpadded base64 of the sha256 of the DER public key (as ssh prints keys). */
export function keyFingerprint(publicKeyBase64: string): string {
  return `SHA256:${crypto.createHash('sha256').update(Buffer.from(publicKeyBase64, 'base64')).digest('base64').replace(/=+$/, '')}`;
}

const publicKeyOf = (privateKey: crypto.KeyObject): string => crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');

function loadPrivateKey(file: string): crypto.KeyObject {
  const stat = fs.lstatSync(file);
  if (!stat.isFile()) throw new Error(`The export signing key ${file} is not a regular file. Delete it; the next export makes a new key.`);
  if (process.platform !== 'win32' && stat.mode & 0o077) {
    throw new Error(
      `The export signing key ${file} can be read by other users (mode ${(stat.mode & 0o777).toString(8)}). Run \`chmod 600 ${file}\`, or delete it to make a new key.`,
    );
  }
  const key = crypto.createPrivateKey(fs.readFileSync(file));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`The export signing key ${file} is not an ed25519 key. Delete it; the next export makes a new key.`);
  return key;
}

/** Writes a new key without ever replacing one: if another export created it first, that one wins. */
function createPrivateKey(file: string): void {
  const { privateKey } = crypto.generateKeyPairSync('ed25519');
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** This installation's signing key, created in the data root on first use. */
export function installationSigningKey(dataDir: string): ManifestSigningKey {
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  if (!fs.existsSync(file)) createPrivateKey(file);
  const privateKey = loadPrivateKey(file);
  return {
    signer: { algorithm: 'ed25519', publicKey: publicKeyOf(privateKey) },
    sign: (payload) => crypto.sign(null, payload, privateKey).toString('base64'),
  };
}

/** This installation's public key (base64 DER), or null when it has not exported yet; never creates one. */
export function installationPublicKey(dataDir: string): string | null {
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  try {
    return publicKeyOf(crypto.createPrivateKey(fs.readFileSync(file)));
  } catch {
    // No key file yet (nothing exported) or one that cannot be read: no public key to show.
    return null;
  }
}

export interface SignatureCheck {
  status: 'signed' | 'unsigned' | 'invalid';
  /** The fingerprint of the key the package names, signed or not. */
  fingerprint: string | null;
  /** Whether that key is this installation's; null when unknown (no key here, or none named). */
  ownKey: boolean | null;
  /** One sentence for people. */
  summary: string;
}

/** Checks a format-2 manifest's signature over its canonical payload. */
export function checkSignature(manifest: Pick<Manifest, 'signer' | 'signature'>, payload: Uint8Array, ownPublicKey: string | null): SignatureCheck {
  const { signer, signature } = manifest;
  if (!signer && !signature) return { status: 'unsigned', fingerprint: null, ownKey: null, summary: 'unsigned: anyone who can edit the file can re-hash it, so the digest alone does not show who wrote it' };
  const fingerprint = signer ? keyFingerprint(signer.publicKey) : null;
  const ownKey = signer && ownPublicKey ? signer.publicKey === ownPublicKey : null;
  const whose = ownKey === true ? "this installation's key" : ownKey === false ? 'not this installation\'s key' : 'this installation has no signing key to compare';
  const invalid = (why: string): SignatureCheck => ({ status: 'invalid', fingerprint, ownKey, summary: `signature invalid: ${why}` });
  if (!signer) return invalid('the manifest has a signature but names no signer key');
  if (!signature) return invalid(`the manifest names signer ${fingerprint} but carries no signature (it was removed or never made)`);
  let valid: boolean;
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(signer.publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return invalid(`the signer key is ${key.asymmetricKeyType}, not ed25519`);
    valid = crypto.verify(null, payload, key, Buffer.from(signature, 'base64'));
  } catch (error) {
    return invalid(`the signer key cannot be read (${errorMessage(error)})`);
  }
  if (!valid) return invalid(`it does not match the manifest under key ${fingerprint} (${whose}): the manifest changed after it was signed`);
  return { status: 'signed', fingerprint, ownKey, summary: `signed by ${fingerprint} (${whose})` };
}
