import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src-main/core/mcp/config';
import { configSecrets, displayEndpoint, isSecretName } from '../../../src-main/core/mcp/configSecrets';
import { REDACTED, clearRegisteredSecrets, configuredSecrets, scrubSecrets } from '../../../src-main/core/security/secrets';
import { loadConfigEnv } from '../../../src-main/core/config/env';

// Which names in an MCP entry (env names, url query parameters, command-line flags) hold a
// key, so their values are registered with the scrubber; and which URL query keys the
// scrubber recognises in any text. Names of ordinary words (keyword, monkey, author) are not keys.
afterEach(() => clearRegisteredSecrets());

const stdio = (env: Record<string, string>, args: string[] = []): McpServerConfig => ({ name: 's', transport: 'stdio', command: 'srv', args, env });
const http = (url: string): McpServerConfig => ({ name: 'h', transport: 'http', url, headers: {} });

describe('secret-like names in an MCP entry', () => {
  it.each(['GITHUB_PAT', 'GH_TOKEN', 'GITLAB_PAT', 'HF_PAT', 'AZURE_DEVOPS_PAT', 'ZOTERO_KEY', 'OPENAI_API_KEY', 'apiKey', 'x-api-key', 'access_token', 'accessToken', 'client_secret', 'DB_PASSWORD', 'sig', 'signature', 'auth', 'Authorization', 'apikey', 'key', 'pat', 'private_key', 'passphrase', 'CREDENTIALS'])('%s is a secret name', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['keyword', 'monkey', 'keys_dir', 'author', 'authors', 'KEYBOARD_LAYOUT', 'tokenizer', 'max_tokens', 'PATH', 'XPATH', 'path', 'pattern', 'patient_id', 'design', 'region', 'LOG_LEVEL', 'turkey_count'])('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  it('registers the values of GITHUB_PAT, GH_TOKEN and *_PAT env entries, and not those of ordinary names', () => {
    const config = stdio({ GITHUB_PAT: 'github_pat_valueABCDEFGH', GH_TOKEN: 'gh-token-value-12345', LAB_PAT: 'labpatvalue99', KEYWORD_MODE: 'fulltext-search', MONKEY: 'bananas-forever' });
    expect(configSecrets(config).sort()).toEqual(['gh-token-value-12345', 'github_pat_valueABCDEFGH', 'labpatvalue99']);
  });

  it('registers url query keys (?key=, &api_key=, access_token=, ?pat=) and not keyword= or monkey=', () => {
    const config = http('https://api.example/mcp?key=plainkeyvalue&keyword=insulin-search&api_key=apikeyvalue1&monkey=george-the-monkey&access_token=accesstokenvalue&pat=patvalue42&region=eu');
    expect(configSecrets(config).sort()).toEqual(['accesstokenvalue', 'apikeyvalue1', 'patvalue42', 'plainkeyvalue']);
  });

  it('registers command-line values of --pat, --github-pat= and GH_TOKEN=, not of --keyword or --monkey', () => {
    const config = stdio({}, ['--pat', 'cli-pat-value-1', '--github-pat=cli-pat-value-2', 'GH_TOKEN=cli-token-value-3', '--keyword', 'some-keyword-here', '--monkey=banana-value-xx', 'AUTHOR=jane-doe-writer']);
    expect(configSecrets(config).sort()).toEqual(['cli-pat-value-1', 'cli-pat-value-2', 'cli-token-value-3']);
  });
});

describe('the endpoint Settings and `mcp servers` show', () => {
  it('shows a url whole but for its password and key-named query values', () => {
    const shown = displayEndpoint(http('https://user:s3cretpass@api.example/mcp?key=plainkeyvalue&keyword=insulin&api_key=apikeyvalue1&region=eu'));
    expect(shown).toBe('https://user:<hidden>@api.example/mcp?key=<hidden>&keyword=insulin&api_key=<hidden>&region=eu');
  });

  it('shows a command line whole but for the values of secret flags and NAME=VALUE arguments', () => {
    const shown = displayEndpoint(stdio({ GH_TOKEN: 'env-value-never-shown' }, ['--pat', 'cli-pat-value-1', '--github-pat=cli-pat-value-2', 'GH_TOKEN=cli-token-value-3', '--keyword', 'insulin', '--port', '8080']));
    expect(shown).toBe('srv --pat <hidden> --github-pat=<hidden> GH_TOKEN=<hidden> --keyword insulin --port 8080');
  });

  it('leaves an entry without keys as it was typed', () => {
    expect(displayEndpoint(stdio({}, ['-y', '@modelcontextprotocol/server-filesystem', '/data']))).toBe('srv -y @modelcontextprotocol/server-filesystem /data');
    expect(displayEndpoint(http('http://127.0.0.1:8931/mcp'))).toBe('http://127.0.0.1:8931/mcp');
  });
});

describe('the scrubber on keys in a url query, in any text', () => {
  it.each([
    ['GET https://maps.example/api?key=abcdefghijklmnop failed', `GET https://maps.example/api?key=${REDACTED} failed`],
    ['https://h.example/mcp?region=eu&key=onlyletterskey', `https://h.example/mcp?region=eu&key=${REDACTED}`],
    ['https://h.example/v1?api_key=onlyletterskey&model=m', `https://h.example/v1?api_key=${REDACTED}&model=m`],
    ['https://h.example/cb#x?access_token=lettersonlytoken', `https://h.example/cb#x?access_token=${REDACTED}`],
    ['https://h.example/cb?state=1&access_token=lettersonlytoken&expires=3600', `https://h.example/cb?state=1&access_token=${REDACTED}&expires=3600`],
    ['https://git.example/repo?pat=lettersonlypat', `https://git.example/repo?pat=${REDACTED}`],
    ['https://blob.example/c/f?sv=2022&sig=AbCdEf%2Bsignature', `https://blob.example/c/f?sv=2022&sig=${REDACTED}`],
  ])('redacts %s', (input, expected) => {
    expect(scrubSecrets(input)).toBe(expected);
  });

  it.each([
    'https://search.example/find?keyword=insulin&monkey=george',
    'https://h.example/list?keys=a,b&tokens=12&author=jane&pattern=abc',
    'artifact key figures/plot1.png saved',
    'the key=value form is how settings are written',
    'see ?keyword=protein for more',
  ])('leaves ordinary text alone: %s', (input) => {
    expect(scrubSecrets(input)).toBe(input);
  });
});

describe('secret-named variables of the app’s own environment', () => {
  it('GITHUB_PAT and *_PAT join GH_TOKEN as secrets; PATH and XPATH_HOME do not', () => {
    const env = loadConfigEnv('/nonexistent-openai4s-dir', {});
    const found = configuredSecrets(env, undefined, { GITHUB_PAT: 'pat-value-111222', GH_TOKEN: 'gh-token-333444', HF_PAT: 'hf-pat-555666', PATH: '/usr/bin:/bin', XPATH_HOME: '/opt/xpath-home' });
    expect(found).toEqual(expect.arrayContaining(['pat-value-111222', 'gh-token-333444', 'hf-pat-555666']));
    expect(found).not.toContain('/usr/bin:/bin');
    expect(found).not.toContain('/opt/xpath-home');
  });
});
