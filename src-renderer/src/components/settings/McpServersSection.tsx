import { useEffect, useState } from 'react';
import type { ErrorBody } from '../../../../src-preload/contract';
import type { McpPolicyAction, McpServerView, McpToolView } from '../../../../src-preload/contract/mcp';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { McpChange } from '../../store/types';
import { Section } from './Section';
import '../../styles/mcp.css';
import { envelopeErrorText } from '../../errors/envelopeText';

const ACTIONS: readonly McpPolicyAction[] = ['allow', 'ask', 'deny'];
const STATE_TONE: Record<McpServerView['state'], string> = { ready: 'ok', starting: 'warn', stopped: 'muted', crashed: 'bad', failed: 'bad' };

/** An override picker: "default (what the annotations give)" or a forced allow / ask / deny. */
function PolicySelect({ label, value, fallback, onChange, testId }: { label: string; value: McpPolicyAction | null; fallback: string; onChange: (next: McpPolicyAction | null) => void; testId: string }) {
  const t = useT();
  return (
    <select aria-label={label} value={value ?? ''} onChange={(e) => onChange((e.target.value || null) as McpPolicyAction | null)} data-testid={testId}>
      <option value="">{t('settings.mcp.policy.default', { policy: fallback })}</option>
      {ACTIONS.map((a) => (
        <option key={a} value={a}>
          {t(`settings.mcp.policy.${a}`)}
        </option>
      ))}
    </select>
  );
}

function ToolRow({ tool, change }: { tool: McpToolView; change: (c: McpChange) => void }) {
  const t = useT();
  // What the annotations give, shown as the default: an override's own value is not a default.
  const basis = tool.basisCode ? t(`settings.mcp.basis.${tool.basisCode}`) : tool.basis.split(';')[0]!;
  const fallback = tool.override ? basis : `${t(`settings.mcp.policy.${tool.policy}`)}${tool.askEveryTime ? `, ${t('settings.mcp.everyTime')}` : ''}`;
  return (
    <li data-testid="mcp-tool" data-tool={tool.name}>
      <span className="mono">{tool.name}</span> <span className="muted small">{tool.basisCode ? (tool.override ? t('settings.mcp.basisOverridden', { basis, policy: t(`settings.mcp.policy.${tool.override}`) }) : basis) : tool.basis}</span>
      <span className="grow" />
      <PolicySelect
        label={t('settings.mcp.toolPolicy', { tool: tool.name })}
        value={tool.override}
        fallback={fallback}
        onChange={(policy) => change({ kind: 'policy', server: tool.server, tool: tool.name, policy })}
        testId="mcp-tool-policy"
      />
    </li>
  );
}

function ServerCard({ server, change }: { server: McpServerView; change: (c: McpChange) => void }) {
  const t = useT();
  return (
    <li data-testid="mcp-server" data-name={server.name}>
      <div className="mcp-server-head">
        <strong>{server.name}</strong> <span className={`pill pill-${STATE_TONE[server.state]}`}>{t(`settings.mcp.state.${server.state}`)}</span>{' '}
        <span className="muted mono small">{server.endpoint}</span>
      </div>
      {server.error ? <p className="small error-text">{t('settings.mcp.serverError', { message: server.error })}</p> : null}
      {server.skipped.map((line) => (
        // The server's own tool names, as text; why the app left each out.
        <p key={line} className="small muted" data-testid="mcp-skipped">
          {line}
        </p>
      ))}
      <div className="mcp-server-actions">
        <PolicySelect
          label={t('settings.mcp.serverPolicy', { server: server.name })}
          value={server.override}
          fallback={t('settings.mcp.policy.perTool')}
          onChange={(policy) => change({ kind: 'policy', server: server.name, tool: null, policy })}
          testId="mcp-server-policy"
        />
        <button type="button" className="btn" onClick={() => change({ kind: 'connect', name: server.name })} data-testid="mcp-connect">
          {t('settings.mcp.connect')}
        </button>
        <button type="button" className="link" onClick={() => change({ kind: 'remove', name: server.name })}>
          {t('settings.mcp.remove')}
        </button>
      </div>
      {server.tools ? (
        <ul className="rule-list">
          {server.tools.map((tool) => (
            <ToolRow key={tool.name} tool={tool} change={change} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** MCP servers: the ones in mcp.json with their state and tools, per-server and per-tool policy, and adding a pasted block. */
export function McpServersSection() {
  const t = useT();
  const mcp = useAppStore((s) => s.mcp);
  const load = useAppStore((s) => s.loadMcp);
  const changeMcp = useAppStore((s) => s.changeMcp);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<ErrorBody | null>(null);
  useEffect(() => {
    void load();
  }, [load]);
  const change = async (c: McpChange) => {
    const failed = await changeMcp(c);
    setProblem(failed);
    if (!failed && c.kind === 'add') setDraft('');
  };
  const view = mcp.data;
  return (
    <Section title={t('settings.mcp.title')} note={t('settings.mcp.note')} testId="settings-mcp">
      {mcp.error ? <p className="error-text small">{envelopeErrorText(t, mcp.error)}</p> : null}
      {view?.errors.map((e) => (
        <p key={e} className="error-text small">
          {t('settings.mcp.configError', { message: e })}
        </p>
      ))}
      {view && !view.servers.length ? <p className="muted small">{t('settings.mcp.empty')}</p> : null}
      <ul className="mcp-servers">
        {view?.servers.map((s) => (
          <ServerCard key={s.name} server={s} change={(c) => void change(c)} />
        ))}
      </ul>
      <label className="mcp-paste">
        <span>{t('settings.mcp.paste')}</span>
        <textarea rows={4} value={draft} placeholder='{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"]}}}' onChange={(e) => setDraft(e.target.value)} data-testid="mcp-paste" />
      </label>
      <button type="button" onClick={() => void change({ kind: 'add', json: draft })} disabled={!draft.trim()} data-testid="mcp-add">
        {t('settings.mcp.add')}
      </button>
      {problem ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, problem)}
        </div>
      ) : null}
      {view ? (
        <p className="small muted">
          {t('settings.mcp.file')} <code>{view.configFile}</code>
          <br />
          {t('settings.mcp.token')} <code data-testid="mcp-token">{view.httpToken}</code>
        </p>
      ) : null}
    </Section>
  );
}
