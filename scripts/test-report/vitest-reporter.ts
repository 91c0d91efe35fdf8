/**
 * A Vitest reporter that writes each test file's time and results to $TEST_TIMINGS_FILE (a JSON
 * array of `{ file, project, seconds, passed, failed, skipped }`), for the slowest-files table and
 * the summary line that scripts/test.mjs prints.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export default class TimingsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const path = process.env.TEST_TIMINGS_FILE;
    if (!path) return;
    const rows = modules.map((module) => {
      const d = module.diagnostic();
      const count = { passed: 0, failed: 0, skipped: 0 };
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') count.passed += 1;
        else if (state === 'failed') count.failed += 1;
        else count.skipped += 1;
      }
      // A file that failed to load has no tests, and is a failure.
      if (module.state() === 'failed' && count.failed === 0) count.failed = 1;
      const ms =
        d.environmentSetupDuration +
        d.prepareDuration +
        d.collectDuration +
        d.setupDuration +
        d.duration;
      return {
        file: module.relativeModuleId,
        project: `vitest ${module.project.name}`,
        seconds: ms / 1000,
        ...count,
      };
    });
    writeFileSync(path, JSON.stringify(rows));
  }
}
