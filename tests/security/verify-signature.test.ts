import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';
import { verifyExport } from '../../src-main/core/export/verify';
import { genuineExport, json, removeExports, withForgedManifest, writePackage, type GenuineExport } from './support/exportPackages';

// Attack: a re-hashed forgery. The attacker changes a file, recomputes its sha256 and the
// manifest digest; the digest alone cannot tell this from the original. A signature by
// the installation's ed25519 key (public key in the package) can.
let genuine: GenuineExport;
let other: GenuineExport;
beforeAll(async () => {
  genuine = await genuineExport();
  other = await genuineExport();
});
afterAll(removeExports);

const keyFile = (g: GenuineExport) => path.join(g.dataDir, 'export-signing-key.pem');
const publicKeyOf = (g: GenuineExport) => crypto.createPublicKey(fs.readFileSync(keyFile(g))).export({ type: 'spki', format: 'der' }).toString('base64');
const fingerprintOf = (g: GenuineExport) => `SHA256:${crypto.createHash('sha256').update(Buffer.from(publicKeyOf(g), 'base64')).digest('base64').replace(/=+$/, '')}`;
const FORGED = new TextEncoder().encode('{"id":"forged"}\n');
const tampered = () => [...genuine.files].map(([n, data]) => [n, n === 'session.json' ? FORGED : data] as const);

async function cliVerify(file: string, dataDir: string, args: string[] = []) {
  let out = '';
  let err = '';
  const code = await runCli(['verify', file, ...args], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, { ...process.env, OPENAI4S_DATA_DIR: dataDir });
  return { code, out, err };
}

describe('export signatures', () => {
  it('signs with a per-installation key created on first export, private to the user', () => {
    const mode = fs.statSync(keyFile(genuine)).mode & 0o777;
    if (process.platform !== 'win32') expect(mode).toBe(0o600);
    expect(genuine.manifest.signer).toEqual({ algorithm: 'ed25519', publicKey: publicKeyOf(genuine) });
    expect(typeof genuine.manifest.signature).toBe('string');
    expect(publicKeyOf(other)).not.toBe(publicKeyOf(genuine));
  });

  it('reports signed by the key fingerprint, and whether it is this installation\'s key', () => {
    const own = verifyExport(genuine.zipFile, { ownPublicKey: publicKeyOf(genuine) });
    expect(own).toMatchObject({ ok: true, signature: { status: 'signed', fingerprint: fingerprintOf(genuine), ownKey: true } });
    const foreign = verifyExport(genuine.zipFile, { ownPublicKey: publicKeyOf(other) });
    expect(foreign).toMatchObject({ ok: true, signature: { status: 'signed', fingerprint: fingerprintOf(genuine), ownKey: false } });
  });

  it('calls a re-hashed forgery that keeps the signature "signature invalid"', () => {
    const file = writePackage(genuine, 'forged-stale', withForgedManifest(genuine, tampered(), {}, 'keep-stale'));
    const report = verifyExport(file, { ownPublicKey: publicKeyOf(genuine) });
    // Every sha256 and the digest add up: only the signature tells.
    expect(report.issues.filter((i) => i.kind !== 'signature')).toEqual([]);
    expect(report.ok).toBe(false);
    expect(report.signature).toMatchObject({ status: 'invalid', fingerprint: fingerprintOf(genuine) });
    expect(report.problems.join('\n')).toMatch(/manifest\.json: signature invalid: .*the manifest changed after it was signed/);
  });

  it('tells a forgery that drops the signature or re-signs apart from the original', () => {
    const dropped = verifyExport(writePackage(genuine, 'forged-unsigned', withForgedManifest(genuine, tampered(), {}, 'drop')), { ownPublicKey: publicKeyOf(genuine) });
    expect(dropped.signature).toMatchObject({ status: 'unsigned', fingerprint: null });
    const attackerKey = crypto.generateKeyPairSync('ed25519').privateKey;
    const resigned = verifyExport(writePackage(genuine, 'forged-resigned', withForgedManifest(genuine, tampered(), {}, { attackerKey })), { ownPublicKey: publicKeyOf(genuine) });
    expect(resigned.signature).toMatchObject({ status: 'signed', ownKey: false });
    expect(resigned.signature.fingerprint).not.toBe(fingerprintOf(genuine));
  });

  it('refuses a signature without a signer key, and a signer key without a signature', () => {
    const noSignature = { ...genuine.manifest, signature: null };
    const entries = [...genuine.files].map(([n, data]) => ({ name: n, data: n === 'manifest.json' ? json(noSignature) : data }));
    const report = verifyExport(writePackage(genuine, 'signer-no-signature', entries));
    expect(report.ok).toBe(false);
    expect(report.signature.status).toBe('invalid');
    expect(report.problems.join('\n')).toMatch(/carries no signature/);
  });

  it('openai4s verify prints who signed and --json reports all of it', async () => {
    const text = await cliVerify(genuine.zipFile, genuine.dataDir);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`signature: signed by ${fingerprintOf(genuine)} (this installation's key)`);
    const elsewhere = await cliVerify(genuine.zipFile, other.dataDir);
    expect(elsewhere.out).toContain(`signature: signed by ${fingerprintOf(genuine)} (not this installation's key)`);
    const forged = writePackage(genuine, 'forged-cli', withForgedManifest(genuine, tampered(), {}, 'keep-stale'));
    const bad = await cliVerify(forged, genuine.dataDir, ['--json']);
    expect(bad.code).toBe(1);
    const report = JSON.parse(bad.out);
    expect(report).toMatchObject({
      ok: false,
      format: 'openai4s-session-export/2',
      signature: { status: 'invalid', fingerprint: fingerprintOf(genuine), ownKey: true },
      problems: [expect.objectContaining({ kind: 'signature' })],
    });
    expect(report.covers).toContain('session.title');
  });

  it('refuses to sign with a key other users can read', async () => {
    if (process.platform === 'win32') return;
    fs.chmodSync(keyFile(other), 0o644);
    await expect(genuineExport({ dataDir: other.dataDir })).rejects.toThrow(/can be read by other users \(mode 644\).*chmod 600/);
    fs.chmodSync(keyFile(other), 0o600);
  });
});
