import { describe, expect, test } from 'vitest';
import { serviceMessage } from '../../src/http/error-body.js';

describe('service error messages from every shape the spec shows', () => {
  test('problem+json with invalidParams', () => {
    const body = JSON.stringify({
      type: 'urn:errors:invalid-argument',
      title: 'Invalid request params',
      detail: 'accountId must not be empty',
      invalidParams: [{ name: 'accountId', reason: 'must not be empty' }],
    });
    expect(serviceMessage(400, 'application/problem+json', body).message).toBe(
      'Invalid request params: accountId must not be empty: invalid params: accountId: must not be empty',
    );
  });

  test('problem+json 429', () => {
    const body = JSON.stringify({ type: 'about:errors:too-many-requests', title: 'Too Many Requests' });
    expect(serviceMessage(429, 'application/problem+json', body).message).toBe('Too Many Requests');
  });

  test('the error envelope, with and without errorDetails', () => {
    expect(
      serviceMessage(
        404,
        'application/json',
        JSON.stringify({ errorMessage: 'User not found', errorCode: 'user.not_found' }),
      ).message,
    ).toBe('User not found (user.not_found)');
    expect(
      serviceMessage(
        400,
        'application/json',
        JSON.stringify({
          errorMessage: 'bad id_hint',
          errorCode: 'request.invalid',
          errorDetails: { field: 'id_hint' },
        }),
      ).message,
    ).toBe('bad id_hint (request.invalid) {"field":"id_hint"}');
  });

  test('OAuth-style error', () => {
    expect(
      serviceMessage(400, 'application/json', '{"error":"invalid_grant","error_description":"code expired"}').message,
    ).toBe('invalid_grant: code expired');
  });

  test('plain text bodies, trimmed and stripped of control characters', () => {
    expect(serviceMessage(400, 'text/plain', 'Budget not found\n').message).toBe('Budget not found');
    expect(serviceMessage(400, 'text/plain', 'bad \x1b[31mred\x1b[0m input\x07').message).toBe('bad red input');
  });

  test('a JSON string body (budget endpoints)', () => {
    expect(serviceMessage(400, 'application/json', '"period_gte is after period_lte"').message).toBe(
      'period_gte is after period_lte',
    );
  });

  test('empty bodies fall back to the status text', () => {
    expect(serviceMessage(404, undefined, '').message).toBe('Not Found');
    expect(serviceMessage(503, 'application/json', '  ').message).toBe('Service Unavailable');
  });

  test('malformed JSON is shown as text', () => {
    expect(serviceMessage(500, 'application/json', '{oops').message).toBe('{oops');
  });
});
