import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../../shared/errorMessage';
import { REVIEW_RULES } from './types';

/**
 * A warm python3 running kernel-workers/python/review.py: one JSON line per cell in, one
 * out. It only parses (ast), never executes the cell, so it runs outside the sandbox with
 * `-I -S` and an empty environment. It is started on the first Python cell and restarted
 * after a failure; callers fall back to the token scan (and say why) when it cannot answer.
 */

const answerSchema = z.union([
  z.object({
    id: z.number(),
    ok: z.literal(true),
    findings: z.array(z.object({ line: z.number().int().min(1), rule: z.enum(REVIEW_RULES), message: z.string() })),
  }),
  z.object({ id: z.number().nullable(), ok: z.literal(false), error: z.string() }),
]);
export type AstAnswer = z.infer<typeof answerSchema>;

export interface PythonReviewerOptions {
  /** The interpreter (the kernel's python, else python3 on PATH). */
  interpreter: string;
  /** Folder holding python/review.py (the app's kernel-workers). */
  workersDir: string;
  /** How long one review may take before the token scan stands in (a 500-line cell takes milliseconds). */
  timeoutMs?: number;
  pathVar?: string;
}

/**
 * review.py is a pure function of the code (it keeps nothing between requests), so its
 * answer for a cell already reviewed in this process is reused: re-running a cell (the
 * notebook's usual loop) then costs no second process round trip before the cell runs.
 * Bounded: the most recent entries, cells up to a size.
 */
const CACHE_ENTRIES = 256;
const CACHE_MAX_CODE_CHARS = 16 * 1024;

interface Pending {
  resolve(answer: AstAnswer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class PythonReviewer {
  private child: ChildProcessWithoutNullStreams | null = null;
  private buffer = '';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Answers by code, oldest first (a Map keeps insertion order; a hit moves to the end). */
  private readonly answers = new Map<string, AstAnswer>();
  /** Why the reviewer last failed to start, kept for doctor. */
  lastError: string | null = null;

  constructor(private readonly options: PythonReviewerOptions) {}

  get script(): string {
    return path.join(this.options.workersDir, 'python', 'review.py');
  }

  /** Reviews Python code with ast; rejects (with the reason) when the reviewer cannot answer. */
  review(code: string): Promise<AstAnswer> {
    const known = this.answers.get(code);
    if (known) {
      this.answers.delete(code);
      this.answers.set(code, known);
      return Promise.resolve(known);
    }
    let asked: Promise<AstAnswer>;
    try {
      asked = this.ask(code);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return asked.then((answer) => {
      if (answer.ok && code.length <= CACHE_MAX_CODE_CHARS) {
        this.answers.set(code, Object.freeze(answer));
        if (this.answers.size > CACHE_ENTRIES) this.answers.delete(this.answers.keys().next().value!);
      }
      return answer;
    });
  }

  private ask(code: string): Promise<AstAnswer> {
    const child = this.ensure();
    const id = this.nextId++;
    return new Promise<AstAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the ast reviewer did not answer within ${this.options.timeoutMs ?? 5000} ms`));
        this.stop();
      }, this.options.timeoutMs ?? 5000);
      this.pending.set(id, { resolve, reject, timer });
      child.stdin.write(`${JSON.stringify({ id, code })}\n`, (error) => {
        if (error) this.failAll(`the ast reviewer could not be written to: ${error.message}`);
      });
    });
  }

  /** Stops the reviewer process (the next review starts a new one). */
  stop(): void {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) child.kill();
    this.failAll('the ast reviewer stopped');
  }

  private ensure(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn(this.options.interpreter, ['-I', '-S', '-B', this.script], {
      env: { PATH: this.options.pathVar ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => this.onData(text));
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
    child.on('error', (error) => {
      this.lastError = `${this.options.interpreter} could not start: ${errorMessage(error)}`;
      if (this.child === child) this.child = null;
      this.failAll(this.lastError);
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.pending.size) {
        this.lastError = `the ast reviewer exited (${signal ?? code})${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`;
        this.failAll(this.lastError);
      }
    });
    // A warm reviewer never keeps the app (or a test) alive on its own.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    return child;
  }

  private onData(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      let answer: AstAnswer;
      try {
        answer = answerSchema.parse(JSON.parse(line));
      } catch (error) {
        this.failAll(`the ast reviewer answered something unreadable: ${errorMessage(error)}`);
        this.stop();
        return;
      }
      const id = answer.id;
      const waiter = id === null ? undefined : this.pending.get(id);
      if (!waiter || id === null) continue;
      this.pending.delete(id);
      clearTimeout(waiter.timer);
      waiter.resolve(answer);
    }
  }

  private failAll(reason: string): void {
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      this.pending.delete(id);
      waiter.reject(new Error(reason));
    }
  }
}
