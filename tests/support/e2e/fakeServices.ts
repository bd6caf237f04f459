import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * UniProt and a SearXNG instance on 127.0.0.1 for the live-run tests. The FASTA of P01308
 * answers at once (the demo's recording); a UniProt search is held open until the test releases it, so "what the run does now" can be looked at while
 * the call is in flight without any timing; the search instance answers one result.
 */
export interface FakeServices {
  baseUrl: string;
  /** Resolves when a UniProt search has arrived (and is being held). */
  uniprotAsked: Promise<void>;
  /** Lets the held UniProt search answer (an empty result list). */
  releaseUniprot(): void;
  searches: string[];
  close(): Promise<void>;
}

export async function startFakeServices(): Promise<FakeServices> {
  let asked!: () => void;
  const uniprotAsked = new Promise<void>((r) => (asked = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const searches: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/uniprotkb/search') {
      asked();
      void released.then(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-total-results': '0' });
        res.end(JSON.stringify({ results: [] }));
      });
      return;
    }
    if (url.pathname === '/uniprotkb/P01308.fasta') {
      // The recorded FASTA of the replay demo: a real record, so the call leaves evidence.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(readFileSync(path.join(__dirname, '../../../resources/demo/uniprot-P01308.fasta')));
      return;
    }
    if (url.pathname === '/search') {
      searches.push(url.searchParams.get('q') ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ url: 'https://www.rcsb.org/structure/4INS', title: '4INS: The structure of 2Zn pig insulin crystals', content: 'Crystal structure of insulin at 1.5 Å resolution.' }] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    uniprotAsked,
    releaseUniprot: release,
    searches,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
