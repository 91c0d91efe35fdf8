import { describe, expect, it } from 'vitest';
import { AppError, classifyErrorForPage, ERROR_CODES, ERROR_PAGE_SUPPORT_TEXT } from '.';

describe('error page classification (spec §8)', () => {
  it.each([
    ['Failed to load department data', 'Department Page Error', 'DEPT_001'],
    ['Loading chunk 7 failed', 'Department Page Error', 'DEPT_001'],
    ['Navigation cancelled', 'Navigation Error', 'NAV_001'],
    ['No route matches', 'Navigation Error', 'NAV_001'],
    ['Network error occurred', 'Connection Error', 'DATA_001'],
    ['Failed to fetch dynamically imported module', 'Connection Error', 'DATA_001'],
    ['API returned 502', 'Connection Error', 'DATA_001'],
    ['Out of memory', 'Performance Error', 'PERF_001'],
    ['Performance budget exceeded', 'Performance Error', 'PERF_001'],
    ['React rendered too many hooks', 'Component Error', 'REACT_001'],
    ['The component crashed', 'Component Error', 'REACT_001'],
    ['x is undefined', 'Something Went Wrong', 'UNKNOWN_001'],
  ])('%s → %s (%s)', (text, title, code) => {
    expect(classifyErrorForPage(text)).toMatchObject({ title, code });
  });

  it('has the support sentence of the spec', () => {
    expect(ERROR_PAGE_SUPPORT_TEXT).toBe(
      'If this problem persists, please refresh the page or contact support.',
    );
  });
});

describe('AppError', () => {
  it('takes its status from the catalogue and serialises to { code, message, details? }', () => {
    const e = new AppError('FORBIDDEN', 'Missing required permission: system.admin');
    expect(e.status).toBe(403);
    expect(e.toBody()).toEqual({
      code: 'FORBIDDEN',
      message: 'Missing required permission: system.admin',
    });
    expect(new AppError('VALIDATION_ERROR', 'bad', { issues: [] }).toBody().details).toEqual({
      issues: [],
    });
  });

  it('gives every code a 4xx/5xx status, a category and a severity', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      if (code === 'NETWORK_ERROR') continue;
      expect(info.status).toBeGreaterThanOrEqual(400);
      expect(['Low', 'Medium', 'High']).toContain(info.severity);
    }
  });
});
