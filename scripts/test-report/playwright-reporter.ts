/**
 * A Playwright reporter that writes each spec file's time (the sum of its tests' run times, as
 * one worker spent them) and results to $TEST_TIMINGS_FILE (a JSON array of
 * `{ file, project, seconds, passed, failed, skipped }`), for the slowest-files table and the
 * summary line that scripts/test.mjs prints.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

interface Row {
  file: string;
  project: string;
  seconds: number;
  passed: number;
  failed: number;
  skipped: number;
}

export default class TimingsReporter implements Reporter {
  private readonly ms = new Map<TestCase, number>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.ms.set(test, (this.ms.get(test) ?? 0) + result.duration);
  }

  onEnd(): void {
    const path = process.env.TEST_TIMINGS_FILE;
    if (!path) return;
    const files = new Map<string, Row>();
    for (const [test, ms] of this.ms) {
      const file = relative(process.cwd(), test.location.file);
      const row = files.get(file) ?? {
        file,
        project: 'playwright',
        seconds: 0,
        passed: 0,
        failed: 0,
        skipped: 0,
      };
      row.seconds += ms / 1000;
      const outcome = test.outcome();
      if (outcome === 'expected' || outcome === 'flaky') row.passed += 1;
      else if (outcome === 'skipped') row.skipped += 1;
      else row.failed += 1;
      files.set(file, row);
    }
    writeFileSync(path, JSON.stringify([...files.values()]));
  }

  printsToStdio(): boolean {
    return false;
  }
}
