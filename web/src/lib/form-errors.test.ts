import { CourseCopySchema } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import { toClientError } from './api-client';
import {
  contractErrors,
  errorMessages,
  fieldErrors,
  firstError,
  showServerErrors,
  validateWith,
} from './form-errors';

describe('form errors', () => {
  it('maps zod issues to the first message per field', () => {
    const errors = contractErrors(CourseCopySchema, { code: '', title: '' });
    expect(Object.keys(errors).sort()).toEqual(['code', 'title']);
    expect(errors.code).toMatch(/\S/);
    expect(firstError(errors)).toBe(errors.code);
    expect(contractErrors(CourseCopySchema, { code: 'NET-2', title: 'Fibre' })).toEqual({});
  });

  it("maps the server's 400 details to the same fields (its paths name the request part)", () => {
    const error = toClientError(400, {
      code: 'VALIDATION_ERROR',
      message: 'Enter a title',
      details: {
        issues: [
          { path: 'body.title', message: 'Enter a title' },
          { path: 'body.title', message: 'Too long' },
          { path: 'body.settings.url', message: 'Not a URL' },
        ],
      },
    });
    expect(fieldErrors(error)).toEqual({ title: 'Enter a title', settings: 'Not a URL' });
    expect(fieldErrors(error, (path) => path.join('.'))).toEqual({
      title: 'Enter a title',
      'settings.url': 'Not a URL',
    });
    expect(errorMessages(error)).toEqual(['Enter a title', 'Too long', 'Not a URL']);
  });

  it('gives no field errors for an error without issues', () => {
    expect(fieldErrors(toClientError(409, { code: 'CONFLICT', message: 'Taken' }))).toEqual({});
    expect(fieldErrors(new Error('x'))).toEqual({});
  });

  it("validateWith checks a form's values (after toPayload) against the contract", () => {
    const validate = validateWith(CourseCopySchema, (v: { code: string }) => ({
      code: v.code,
      title: 'Fibre',
    }));
    expect(validate({ code: '' })).toHaveProperty('code');
    expect(validate({ code: 'NET-2' })).toEqual({});
  });

  it("showServerErrors puts the server's messages under the form's own fields only", () => {
    let shown: Record<string, string> = {};
    const form = { getValues: () => ({ title: '' }), setErrors: (e: typeof shown) => (shown = e) };
    const refusal = (path: string) =>
      toClientError(400, {
        code: 'VALIDATION_ERROR',
        message: 'm',
        details: { issues: [{ path, message: 'Bad' }] },
      });
    expect(showServerErrors(form, refusal('body.title'))).toBe(true);
    expect(shown).toEqual({ title: 'Bad' });
    shown = {};
    expect(showServerErrors(form, refusal('body.other'))).toBe(false);
    expect(shown).toEqual({});
  });
});
