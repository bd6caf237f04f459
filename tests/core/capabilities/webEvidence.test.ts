import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCitedAnswer } from '../../../src-main/core/engine/finalize';
import { sessionEvidenceLookup } from '../../../src-main/core/runner/evidenceLookup';
import { recordPageEvidence } from '../../../src-main/core/provenance/evidenceRecords';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { webFetchTool } from '../../../src-main/core/capabilities/tools/webTools';
import { loopback } from '../security/loopback';

const PAGE = '<html><head><title>Insulin</title></head><body><p>Insulin is a peptide hormone.</p></body></html>';

describe('web_fetch pages are evidence', () => {
  it('records the page with the hash of the exact bytes, and a finalize citing it is accepted', async () => {
    const server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    });
    const store = new MemoryEvidenceStore();
    const tool = webFetchTool({
      // A test's exception to the address rule (never the model's): this loopback server only.
      egress: { allowAddress: (address, port) => address === '127.0.0.1' && port === server.port },
      onPage: (page) => recordPageEvidence(store, page).id,
    });
    const out = await tool.execute(
      { url: `${server.origin}/insulin` },
      { sessionId: 's1', runId: 'r1', workspace: '/tmp', signal: new AbortController().signal, origin: 'tool' },
    );
    const evidenceId = (out.output as { evidenceId: string }).evidenceId;
    expect(evidenceId).toMatch(/^ev_[a-z2-7]{16}$/);
    expect(out.text).toContain(`Evidence id: ${evidenceId}`);
    const record = store.get('s1', evidenceId);
    expect(record).toMatchObject({ sessionId: 's1', kind: 'page' });
    expect(JSON.stringify(record)).toContain(createHash('sha256').update(PAGE).digest('hex'));

    const claim = { statement: 'Insulin is a peptide hormone.', basis: 'observed', evidence: [evidenceId], uncertainty: '' };
    const answer = { summary: 's', claims: [claim], limitations: ['l'], completion_bullets: ['b'] };
    expect((await checkCitedAnswer(answer, sessionEvidenceLookup(store, 's1'))).ok).toBe(true);
    // The same id from another session does not count.
    expect((await checkCitedAnswer(answer, sessionEvidenceLookup(store, 's2'))).ok).toBe(false);
  });
});

describe('web_fetch on a hostile page', () => {
  it('a page nested 100,000 deep comes back with its text and a note of where it was cut', async () => {
    const deep = `<html><body><p>Readable part.</p>${'<div>'.repeat(100_000)}unread${'</div>'.repeat(100_000)}</body></html>`;
    const server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(deep);
    });
    const tool = webFetchTool({ egress: { allowAddress: (address, port) => address === '127.0.0.1' && port === server.port } });
    const out = await tool.execute(
      { url: `${server.origin}/deep`, max_chars: 200 },
      { sessionId: 's1', runId: 'r1', workspace: '/tmp', signal: new AbortController().signal, origin: 'tool' },
    );
    expect(out.text).toContain('Readable part.');
    // The header says it even when max_chars cuts the text's own closing note away.
    expect(out.text).toContain('Note: the page was read only in part: its elements nest deeper than 512 levels.');
    expect(out.text).not.toContain('unread');
  }, 60_000);
});
