import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildAssignmentDetail,
  buildGrade,
  buildSubmission,
  stubLayoutForEditor,
} from '../../../test/assignment-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

beforeAll(stubLayoutForEditor);

const BASE = '/classroom/course-1/assignments/assignment-1/grade';
const ann = buildSubmission({
  id: 'submission-a',
  userId: 'user-ann',
  userName: 'Ann Archer',
  textHtml: '<p>Ann answers.</p>',
  files: [
    {
      id: 'file-1',
      name: 'trace.png',
      mime: 'image/png',
      size: 2048,
      url: '/api/files/file-1?sig=x',
      thumbnailUrl: null,
    },
    {
      id: 'file-2',
      name: 'report.pdf',
      mime: 'application/pdf',
      size: 4096,
      url: '/api/files/file-2?sig=y',
      thumbnailUrl: null,
    },
    {
      id: 'file-3',
      name: 'walk.mp4',
      mime: 'video/mp4',
      size: 9000,
      url: '/api/files/file-3?sig=z',
      thumbnailUrl: null,
    },
    {
      id: 'file-4',
      name: 'data.zip',
      mime: 'application/zip',
      size: 100,
      url: '/api/files/file-4?sig=w',
      thumbnailUrl: null,
    },
  ],
});
const sam = buildSubmission({ grade: buildGrade({ points: 12 }) });

function open(search: string) {
  const fetchMock = signedInAs(buildUser({ role: 'instructor' }), {
    'GET /api/assignments/assignment-1': { body: buildAssignmentDetail({ toGrade: 1 }) },
    'GET /api/assignments/assignment-1/submissions': { body: { ...listOf([sam, ann]) } },
    'GET /api/assignments/assignment-1/grades/user-ann/history': { body: listOf([]) },
    'GET /api/assignments/assignment-1/grades/user-student/history': {
      body: listOf([buildGrade({ points: 12, revision: 2 }), buildGrade({ points: 9 })]),
    },
    'PUT /api/submissions/submission-a/grade': {
      body: buildGrade({ userId: 'user-ann', submissionId: 'submission-a', points: 18 }),
    },
  });
  return { fetchMock, ...renderApp(`${BASE}${search}`) };
}

describe('classroom: grading', () => {
  it('shows the answer and files inline, and moves between learners', async () => {
    const { user, router } = open('');
    await findHeading('Grade: Trace report');
    // Sorted by name: Ann first.
    expect(screen.getByText('Ann answers.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'trace.png' })).toHaveAttribute(
      'src',
      '/api/files/file-1?sig=x',
    );
    expect(screen.getByTitle('report.pdf (PDF)')).toHaveAttribute('src', '/api/files/file-2?sig=y');
    expect(document.querySelector('video[controls]')).toHaveAttribute(
      'src',
      '/api/files/file-3?sig=z',
    );
    expect(screen.getByRole('link', { name: 'data.zip (100 B)' })).toHaveAttribute(
      'href',
      '/api/files/file-4?sig=w',
    );
    expect(screen.getByRole('button', { name: 'Previous learner' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next learner' }));
    await waitFor(() => expect(router.state.location.search).toBe('?submission=submission-1'));
    expect(await screen.findByText('The splice at 2.1 km loses 0.3 dB.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Points/ })).toHaveValue('12');
    expect(await screen.findByText(/^12 \/ 20 by Ines Instructor/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous learner' }));
    await waitFor(() => expect(router.state.location.search).toBe('?submission=submission-a'));
  });

  it('saves a grade with feedback', async () => {
    const { user, fetchMock } = open('?submission=submission-a');
    await findHeading('Grade: Trace report');
    await user.type(screen.getByRole('textbox', { name: /Points/ }), '18');
    await user.click(await screen.findByRole('textbox', { name: 'Feedback' }));
    await user.paste('Clear trace');
    await user.click(screen.getByRole('button', { name: 'Save grade' }));
    expect(await screen.findByText('Grade saved')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/submissions/submission-a/grade')[0]?.body).toEqual({
      points: 18,
      feedbackHtml: '<p>Clear trace</p>',
    });
  });

  it('says after saving that learners cannot see the grade yet, and releases the grades', async () => {
    let released = false;
    const detail = () =>
      buildAssignmentDetail({
        toGrade: 1,
        canReleaseGrades: true,
        gradesReleased: released,
        unreleasedGrades: released ? 0 : 1,
      });
    const fetchMock = signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/assignments/assignment-1': () => ({ body: detail() }),
      'GET /api/assignments/assignment-1/submissions': { body: { ...listOf([ann]) } },
      'GET /api/assignments/assignment-1/grades/user-ann/history': { body: listOf([]) },
      'PUT /api/submissions/submission-a/grade': {
        body: buildGrade({ userId: 'user-ann', submissionId: 'submission-a', released: false }),
      },
      'PATCH /api/assignments/assignment-1': () => {
        released = true;
        return { body: detail() };
      },
    });
    const { user } = renderApp(`${BASE}?submission=submission-a`);
    await findHeading('Grade: Trace report');
    await user.type(screen.getByRole('textbox', { name: /Points/ }), '15');
    await user.click(screen.getByRole('button', { name: 'Save grade' }));
    expect(
      await screen.findByText('Learners cannot see this grade until grades are released.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '1 grade not released' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Release grades' }));
    expect(await screen.findByText('Learners can see this grade.')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Grades released' })).toBeInTheDocument();
    expect(fetchMock.callsTo('PATCH /api/assignments/assignment-1')[0]?.body).toEqual({
      gradesReleased: true,
      revision: 1,
    });
  });

  it('offers releasing only to those who may (an assistant grades, the instructor releases)', async () => {
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': {
        body: buildAssignmentDetail({ toGrade: 0, canReleaseGrades: false, unreleasedGrades: 2 }),
      },
      'GET /api/assignments/assignment-1/submissions': { body: { ...listOf([ann]) } },
      'GET /api/assignments/assignment-1/grades/user-ann/history': { body: listOf([]) },
    });
    renderApp(`${BASE}?submission=submission-a`);
    await findHeading('Grade: Trace report');
    expect(screen.getByRole('status', { name: '2 grades not released' })).toHaveTextContent(
      'Those who can edit this assignment release its grades.',
    );
    expect(screen.queryByRole('button', { name: 'Release grades' })).not.toBeInTheDocument();
  });

  it("sends someone who may not see the submissions back to the assignment, with the server's reason", async () => {
    signedInAs(buildUser(), {
      'GET /api/assignments/assignment-1': { body: buildAssignmentDetail() },
      'GET /api/assignments/assignment-1/submissions': {
        status: 403,
        body: {
          code: 'FORBIDDEN',
          message: 'Missing required permission: assignment.view_submissions',
        },
      },
    });
    const { router } = renderApp(BASE);
    await findHeading('Trace report');
    expect(router.state.location.pathname).toBe('/classroom/course-1/assignments/assignment-1');
    expect(
      screen.getByText(
        'You do not have access to the grading of this assignment: Missing required permission: assignment.view_submissions',
      ),
    ).toBeInTheDocument();
  });
});
