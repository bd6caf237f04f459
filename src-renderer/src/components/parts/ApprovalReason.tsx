import '../../styles/safety.css';

const FLAGGED_LINE = /^line (\d+): (.*)$/;

/**
 * An approval's reason. A cell the pre-execution review flagged (issue 27) lists its lines
 * as `line N: code (what it does)`: those are shown as code, one per line, so the person
 * deciding sees exactly what would run; any other reason is plain text.
 */
export function ApprovalReason({ reason }: { reason: string }) {
  const lines = reason.split('\n');
  const flagged = lines.map((l) => FLAGGED_LINE.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  if (!flagged.length) return <span className="muted small"> {reason}</span>;
  const text = lines.filter((l) => !FLAGGED_LINE.test(l)).join(' ');
  return (
    <span className="approval-reason">
      {text ? <span className="muted small"> {text}</span> : null}
      <span className="flagged-lines" data-testid="flagged-lines">
        {flagged.map((m) => (
          <code key={m[1]} className="flagged-line" data-line={m[1]}>
            <span className="flagged-line-number">{m[1]}</span>
            {m[2]}
          </code>
        ))}
      </span>
    </span>
  );
}
