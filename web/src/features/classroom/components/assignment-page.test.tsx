import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildAssignmentDetail,
  buildGrade,
  buildSubmission,
  stubLayoutForEditor,
} from '../../../test/assignment-fixtures';
import { buildCourseDetail } from '../../../test/classroom-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { formatDateTime } from '../../../lib/format';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { mockUploads } from '../../../test/upload-mock';

beforeAll(stubLayoutForEditor);

const PATH = '/classroom/course-1/assignments/assignment-1';
// Due in the future: the page offers the form (the server may still refuse a hand-in that
// arrives after the date has passed).
const learnerAssignment = buildAssignmentDetail({
  latePolicy: 'refuse',
  dueAt: new Date(Date.now() + 86_400_000).toISOString(),
  mine: { status: 'submitted', attemptsUsed: 1, points: 15, late: false },
});

describe('classroom: an assignment for a learner', () => {
  it('saves a draft, and shows why handing in was refused', async () => {
    const fetchMock = signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': { body: learnerAssignment },
      'GET /api/assignments/assignment-1/submissions': {
        body: { ...listOf([buildSubmission({ grade: buildGrade() })]) },
      },
      'POST /api/assignments/assignment-1/submissions': ({ body }) =>
        (body as { submit: boolean }).submit
          ? {
              status: 409,
              body: {
                code: 'CONFLICT',
                message: 'The due date has passed; this assignment no longer accepts submissions.',
              },
            }
          : { body: buildSubmission({ id: 'draft-1', status: 'draft', submittedAt: null }) },
    });
    const { user } = renderApp(PATH);
    await findHeading('Trace report');
    expect(screen.getByText('Work is not accepted after the due date.')).toBeInTheDocument();
    // The attempt handed in, in place of the form, with its released grade and feedback.
    const attempt = await screen.findByRole('article', { name: 'Attempt 1' });
    expect(within(attempt).getByText('Grade: 15 / 20')).toBeInTheDocument();
    expect(within(attempt).getByText('Good trace.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    expect(screen.getByText('1 attempt left')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start a new attempt' }));
    expect(screen.getByText('Attempt 2 of 2')).toBeInTheDocument();
    // The attempt handed in stays on the page, below the new one.
    expect(
      within(screen.getByRole('region', { name: 'Your attempts' })).getByRole('article', {
        name: 'Attempt 1',
      }),
    ).toBeInTheDocument();

    // Pasted at once: typing races the editor's controlled value in jsdom. The editor is a chunk
    // of its own: the page shows before it (docs/front-end.md).
    await user.click(await screen.findByRole('textbox', { name: 'Answer' }));
    await user.paste('Second try');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Draft saved')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/assignments/assignment-1/submissions')[0]?.body).toEqual({
      textHtml: '<p>Second try</p>',
      fileIds: [],
      submit: false,
    });

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hand in your work?' });
    expect(dialog).toHaveTextContent('This hands in attempt 2 of 2.');
    await user.click(within(dialog).getByRole('button', { name: 'Hand in' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The due date has passed; this assignment no longer accepts submissions.',
    );
    expect(fetchMock.callsTo('POST /api/assignments/assignment-1/submissions')[1]?.body).toEqual({
      textHtml: '<p>Second try</p>',
      fileIds: [],
      submit: true,
    });
  });

  it('hands in and says when the attempt is marked late', async () => {
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({
          submissionKinds: ['text'],
          mine: { status: 'draft', attemptsUsed: 0, points: null, late: false },
        }),
      },
      'GET /api/assignments/assignment-1/submissions': {
        body: {
          ...listOf([
            buildSubmission({ id: 'draft-1', status: 'draft', textHtml: '<p>Ready</p>' }),
          ]),
        },
      },
      'POST /api/assignments/assignment-1/submissions': {
        status: 201,
        body: buildSubmission({ id: 'submission-2', late: true }),
      },
    });
    const { user } = renderApp(PATH);
    await findHeading('Trace report');
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(screen.queryByText('Files')).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Hand in your work?' });
    await user.click(within(dialog).getByRole('button', { name: 'Hand in' }));
    expect(
      await screen.findByText('Attempt 1 was handed in after the due date and is marked late.'),
    ).toBeInTheDocument();
  });

  it('shows the attempt handed in in place of the form, and starts a new one on request', async () => {
    let handedIn = false;
    const handed = buildSubmission({
      id: 'submission-1',
      textHtml: '<p>Ready</p>',
      files: [
        {
          id: 'file-1',
          name: 'trace.pdf',
          mime: 'application/pdf',
          size: 2048,
          url: '/api/files/file-1?sig=x',
          thumbnailUrl: null,
        },
      ],
      submittedAt: '2025-03-04T09:00:00.000Z',
    });
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': () => ({
        body: buildAssignmentDetail({
          dueAt: null,
          mine: {
            status: handedIn ? 'submitted' : 'draft',
            attemptsUsed: handedIn ? 1 : 0,
            points: null,
            late: false,
          },
        }),
      }),
      'GET /api/assignments/assignment-1/submissions': () => ({
        body: {
          ...listOf(
            handedIn
              ? [handed]
              : [
                  buildSubmission({
                    id: 'draft-1',
                    status: 'draft',
                    textHtml: '<p>Ready</p>',
                    files: handed.files,
                    submittedAt: null,
                  }),
                ],
          ),
        },
      }),
      'POST /api/assignments/assignment-1/submissions': () => {
        handedIn = true;
        return { status: 201, body: handed };
      },
    });
    const { user, unmount } = renderApp(PATH);
    await findHeading('Trace report');
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hand in your work?' });
    await user.click(within(dialog).getByRole('button', { name: 'Hand in' }));

    // The form gives way to what was handed in: number, time, status, text and files.
    const attempt = await screen.findByRole('article', { name: 'Attempt 1' });
    expect(attempt).toHaveFocus();
    expect(attempt).toHaveTextContent(`handed in ${formatDateTime('2025-03-04T09:00:00.000Z')}`);
    expect(within(attempt).getByText('Handed in')).toBeInTheDocument();
    expect(within(attempt).getByText('Ready')).toBeInTheDocument();
    expect(within(attempt).getByRole('link', { name: 'trace.pdf (2 KB)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save draft' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Drop files here/)).not.toBeInTheDocument();

    // A new attempt opens an empty form; cancelling it goes back.
    await user.click(screen.getByRole('button', { name: 'Start a new attempt' }));
    expect(await screen.findByRole('button', { name: 'Submit' })).toBeEnabled();
    expect(screen.queryByRole('list', { name: 'Files' })).not.toBeInTheDocument();
    expect(screen.getByText('Attempt 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Start a new attempt' })).toBeInTheDocument();

    // Opened again later: the same.
    unmount();
    renderApp(PATH);
    await findHeading('Trace report');
    expect(await screen.findByRole('article', { name: 'Attempt 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start a new attempt' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  });

  it('offers no new attempt once all are used', async () => {
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({
          maxAttempts: 1,
          mine: { status: 'submitted', attemptsUsed: 1, points: null, late: false },
        }),
      },
      'GET /api/assignments/assignment-1/submissions': {
        body: { ...listOf([buildSubmission()]) },
      },
    });
    renderApp(PATH);
    await findHeading('Trace report');
    expect(await screen.findByRole('article', { name: 'Attempt 1' })).toBeInTheDocument();
    expect(screen.getByText('You have used your one attempt.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start a new attempt' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  });

  it('offers no form once the due date of work refused late has passed', async () => {
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({
          latePolicy: 'refuse',
          dueAt: '2025-04-01T16:00:00.000Z',
          mine: { status: 'none', attemptsUsed: 0, points: null, late: false },
        }),
      },
      'GET /api/assignments/assignment-1/submissions': { body: { ...listOf([]) } },
    });
    renderApp(PATH);
    await findHeading('Trace report');
    expect(
      await screen.findByText(
        'The due date has passed; this assignment no longer accepts submissions.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save draft' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  });

  it("sends a non-participant to the course's page, with the server's reason", async () => {
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        status: 403,
        body: {
          code: 'FORBIDDEN',
          message: 'Only the participants of this course can open its assignments.',
        },
      },
      'GET /api/courses/course-1': { body: buildCourseDetail() },
    });
    const { router } = renderApp(PATH);
    await findHeading('Fibre testing with an OTDR');
    expect(router.state.location.pathname).toBe('/classroom/course-1');
    expect(
      screen.getByText(
        'You do not have access to this assignment: Only the participants of this course can open its assignments.',
      ),
    ).toBeInTheDocument();
  });

  it('refuses files of the wrong type before uploading them', async () => {
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({
          submissionKinds: ['file'],
          mine: { status: 'none', attemptsUsed: 0, points: null, late: false },
        }),
      },
      'GET /api/assignments/assignment-1/submissions': { body: { ...listOf([]) } },
    });
    const { container } = renderApp(PATH);
    await findHeading('Trace report');
    await screen.findByText(/Drop files here/);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['x'], 'notes.exe', { type: 'application/x-msdownload' })] },
    });
    expect(
      await screen.findByText('notes.exe is not one of the allowed file types.'),
    ).toBeInTheDocument();
  });

  it('gives back an upload removed from the form before it was saved', async () => {
    mockUploads((file) => ({
      status: 201,
      body: {
        id: 'file-9',
        name: file.name,
        mime: 'application/pdf',
        size: 4,
        sha256: 'a'.repeat(64),
        uploadedBy: 'user-1',
        createdAt: '2025-03-01T09:00:00.000Z',
        owner: null,
        attachedAt: null,
        hasThumbnail: false,
      },
    }));
    const fetchMock = signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({
          submissionKinds: ['file'],
          mine: { status: 'none', attemptsUsed: 0, points: null, late: false },
        }),
      },
      'GET /api/assignments/assignment-1/submissions': { body: { ...listOf([]) } },
      'DELETE /api/files/file-9': { status: 204 },
    });
    const { container, user } = renderApp(PATH);
    await findHeading('Trace report');
    await screen.findByText(/Drop files here/);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['%PDF'], 'trace.pdf', { type: 'application/pdf' })] },
    });
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Remove trace.pdf' }));
    await waitFor(() => expect(fetchMock.callsTo('DELETE /api/files/file-9')).toHaveLength(1));
  });

  it("shows the server's words when it refuses an upload over a limit (413, 429)", async () => {
    const quota =
      'You have 480 MB of uploads not yet attached to anything, and the limit is 500 MB, so ' +
      'this file does not fit. Attach them (save what they belong to) or remove them before ' +
      'uploading more; uploads left unattached are removed after 24 hours.';
    const rate = 'Too many uploads: at most 60 files in 10 minutes. Try again in 42 seconds.';
    mockUploads((file) =>
      file.name === 'trace.pdf'
        ? { status: 413, body: { code: 'UPLOAD_QUOTA_EXCEEDED', message: quota } }
        : { status: 429, body: { code: 'RATE_LIMITED', message: rate } },
    );
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({
          submissionKinds: ['file'],
          mine: { status: 'none', attemptsUsed: 0, points: null, late: false },
        }),
      },
      'GET /api/assignments/assignment-1/submissions': { body: { ...listOf([]) } },
    });
    const { container } = renderApp(PATH);
    await findHeading('Trace report');
    await screen.findByText(/Drop files here/);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: {
        files: [
          new File(['%PDF'], 'trace.pdf', { type: 'application/pdf' }),
          new File(['%PDF'], 'splice.pdf', { type: 'application/pdf' }),
        ],
      },
    });
    expect(await screen.findByText(`Upload failed: ${quota}`)).toBeInTheDocument();
    expect(await screen.findByText(`Upload failed: ${rate}`)).toBeInTheDocument();
  });
});

describe('classroom: an assignment for graders', () => {
  it('lists the latest attempts with grade links and releases grades', async () => {
    const fetchMock = signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({ toGrade: 1, canReleaseGrades: true, unreleasedGrades: 2 }),
      },
      'GET /api/assignments/assignment-1/submissions': {
        body: { ...listOf([buildSubmission({ late: true })]) },
      },
      'PATCH /api/assignments/assignment-1': {
        body: buildAssignmentDetail({ toGrade: 1, gradesReleased: true, unreleasedGrades: 0 }),
      },
    });
    const { user } = renderApp(PATH);
    await findHeading('Trace report');
    const table = await screen.findByRole('table', { name: 'Submissions' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Sam Student');
    expect(row).toHaveTextContent('Late');
    expect(row).toHaveTextContent('Not graded');
    expect(within(row).getByRole('link', { name: 'Grade Sam Student' })).toHaveAttribute(
      'href',
      `${PATH}/grade?submission=submission-1`,
    );
    expect(fetchMock.callsTo('GET /api/assignments/assignment-1/submissions')[0]?.search).toBe(
      '?latest=true',
    );
    expect(screen.getByRole('status', { name: '2 grades not released' })).toHaveTextContent(
      'Learners cannot see the grades of this assignment until they are released.',
    );
    await user.click(screen.getByRole('button', { name: 'Release grades' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('PATCH /api/assignments/assignment-1')[0]?.body).toEqual({
        gradesReleased: true,
        revision: 1,
      }),
    );
  });
});
