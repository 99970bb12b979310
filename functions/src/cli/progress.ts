// Progress on stderr: on a terminal one line that redraws (a bar, the percent, the stage and the page); in
// a CI log or a file, a plain line each time the stage changes or the percent passes another tenth, so a
// log stays short and readable.

export interface ProgressOutput {
  write(text: string): void;
  tty: boolean;
  columns?: number | undefined;
}

const BAR_WIDTH = 24;

export class Progress {
  private lastStage = '';
  private lastTenth = -1;
  private drawn = false;

  constructor(
    private readonly label: string,
    private readonly output: ProgressOutput,
  ) {}

  /** percent 0–100; stage a word ("crawling"); detail the page or item at hand. */
  update(percent: number, stage: string, detail = ''): void {
    const p = Math.max(0, Math.min(100, Math.round(percent)));
    if (this.output.tty) {
      const filled = Math.round((p / 100) * BAR_WIDTH);
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
      const line = `${this.label} ${bar} ${String(p).padStart(3)}% ${stage}${detail ? ` ${detail}` : ''}`;
      const width = Math.max(20, (this.output.columns || 80) - 1);
      this.output.write(`\r\x1b[2K${line.slice(0, width)}`);
      this.drawn = true;
      return;
    }
    const tenth = Math.floor(p / 10);
    if (stage === this.lastStage && tenth === this.lastTenth) return;
    this.lastStage = stage;
    this.lastTenth = tenth;
    this.output.write(`${this.label}: ${p}% ${stage}${detail ? ` ${detail}` : ''}\n`);
  }

  /** A line of its own (the bar, if drawn, is cleared first and redrawn by the next update). */
  note(text: string): void {
    this.clear();
    this.output.write(`${text}\n`);
  }

  /** Ends the bar with a last line. */
  done(text: string): void {
    this.clear();
    this.output.write(`${this.label}: ${text}\n`);
  }

  private clear(): void {
    if (this.drawn) this.output.write('\r\x1b[2K');
    this.drawn = false;
  }
}
