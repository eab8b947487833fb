import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clientToken, raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/cli.js';
import { addAccount } from './helpers.js';
import { requires } from '../helpers/requires.js';

let t: TestEnv;
let base: string;
beforeAll(async () => {
  t = await startTestSandbox();
  base = t.sandbox.baseUrl;
});
afterAll(() => t.close());
const bearer = (tok: string) => ({ authorization: `Bearer ${tok}` });
// a real PDF reader (poppler-utils) opens what the sandbox renders
const pdfReader = requires({ tools: ['pdfinfo', 'pdftotext'] });
const REPORT_SCOPES = ['account-verification-reports:write', 'account-verification-reports:read'];

describe('account verification reports (spec 4.1, 2.7)', () => {
  test('400 "user data missing" when the user has no accounts; 400 for a body that is not an object', async () => {
    const u = await userWithToken(t.sandbox, REPORT_SCOPES);
    const r = await raw(base, 'POST', '/api/v1/account-verification-reports', { headers: bearer(u.token), json: {} });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/user data missing/);
    const arr = await raw(base, 'POST', '/api/v1/account-verification-reports', {
      headers: bearer(u.token),
      json: [1],
    });
    expect(arr.status).toBe(400);
    const broken = await raw(base, 'POST', '/api/v1/account-verification-reports', {
      headers: { ...bearer(u.token), 'content-type': 'application/json' },
      body: '{"accountIds": [',
    });
    expect(broken.status).toBe(400);
    expect(broken.text).toMatch(/malformed JSON/);
  });

  pdfReader.test('create, get, pdf, then 404 an hour later by the sandbox clock', async () => {
    const u = await userWithToken(t.sandbox, REPORT_SCOPES);
    const acc = addAccount(t.sandbox.store, u.userId, { name: 'Lönekonto', balance: '12345678901234.56' });
    const created = await raw(base, 'POST', '/api/v1/account-verification-reports', {
      headers: bearer(u.token),
      json: { accountIds: [acc.id] },
    });
    expect(created.status).toBe(200);
    const rep = created.json();
    expect(rep.userDataByProvider[0].accounts[0]).toMatchObject({
      id: acc.id,
      accountNumber: '8327-9234947790',
      holderName: 'Åsa Öberg',
      balance: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '1234567890123456' } },
    });

    const got = await raw(base, 'GET', `/api/v1/account-verification-reports/${rep.id}`, { headers: bearer(u.token) });
    expect(got.status).toBe(200);
    expect(got.json()).toEqual(rep);
    // a client token with the read scope sees it too
    const ct = await clientToken(t.sandbox, ['account-verification-reports:read']);
    expect(
      (await raw(base, 'GET', `/api/v1/account-verification-reports/${rep.id}`, { headers: bearer(ct) })).status,
    ).toBe(200);

    const pdf = await fetch(`${base}/api/v1/account-verification-reports/${rep.id}/pdf?template=standard-1.0`, {
      headers: bearer(u.token),
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const file = join(tempDir(), 'report.pdf');
    writeFileSync(file, bytes);
    // a real reader opens it
    const checked = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(checked.status).toBe(0);
    // no "Syntax Error" or xref reconstruction warnings: the offsets are right
    expect(checked.stderr).toBe('');
    const info = checked.stdout;
    expect(info).toMatch(/PDF version:\s+1\.4/);
    expect(info).toMatch(/Pages:\s+1/);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Account verification report');
    expect(text).toContain(rep.id);
    expect(text).toContain('Lönekonto');
    expect(text).toContain('Åsa Öberg');
    expect(text).toContain('12345678901234.56 SEK');

    // template: required and checked
    expect(
      (await raw(base, 'GET', `/api/v1/account-verification-reports/${rep.id}/pdf`, { headers: bearer(u.token) }))
        .status,
    ).toBe(400);
    const badTemplate = await raw(
      base,
      'GET',
      `/api/v1/account-verification-reports/${rep.id}/pdf?template=fancy-2.0`,
      { headers: bearer(u.token) },
    );
    expect(badTemplate.status).toBe(400);
    expect(badTemplate.text).toMatch(/standard-1\.0/);

    // 59 minutes later it is still there; after the hour it is gone
    t.sandbox.clock.advance(59 * 60_000);
    expect(
      (await raw(base, 'GET', `/api/v1/account-verification-reports/${rep.id}`, { headers: bearer(u.token) })).status,
    ).toBe(200);
    t.sandbox.clock.advance(60_000);
    // the user token (2 h) is still valid, the report (1 h) is not
    expect(
      (await raw(base, 'GET', `/api/v1/account-verification-reports/${rep.id}`, { headers: bearer(u.token) })).status,
    ).toBe(404);
    expect(
      (
        await raw(base, 'GET', `/api/v1/account-verification-reports/${rep.id}/pdf?template=standard-1.0`, {
          headers: bearer(u.token),
        })
      ).status,
    ).toBe(404);
  });

  pdfReader.test('a report with many accounts runs over several pages that a reader opens', async () => {
    const u = await userWithToken(t.sandbox, REPORT_SCOPES);
    for (let i = 0; i < 40; i++)
      addAccount(t.sandbox.store, u.userId, {
        name: `Konto (${i}) \\ ö`,
        accountNumber: `5000-${String(i).padStart(7, '0')}`,
      });
    const rep = (
      await raw(base, 'POST', '/api/v1/account-verification-reports', { headers: bearer(u.token), json: {} })
    ).json();
    const pdf = Buffer.from(
      await (
        await fetch(`${base}/api/v1/account-verification-reports/${rep.id}/pdf?template=standard-1.0`, {
          headers: bearer(u.token),
        })
      ).arrayBuffer(),
    );
    const file = join(tempDir(), 'many.pdf');
    writeFileSync(file, pdf);
    const info = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info.stderr).toBe('');
    const pages = Number(/Pages:\s+(\d+)/.exec(info.stdout)![1]);
    expect(pages).toBeGreaterThan(1);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    // parentheses and backslashes are escaped, every account is there
    for (let i = 0; i < 40; i++) expect(text).toContain(`Konto (${i}) \\ ö`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
  });

  test('another user cannot read the report (404); unknown ids are 404', async () => {
    const a = await userWithToken(t.sandbox, REPORT_SCOPES);
    addAccount(t.sandbox.store, a.userId);
    const rep = (
      await raw(base, 'POST', '/api/v1/account-verification-reports', { headers: bearer(a.token), json: {} })
    ).json();
    const b = await userWithToken(t.sandbox, REPORT_SCOPES);
    expect(
      (await raw(base, 'GET', `/api/v1/account-verification-reports/${rep.id}`, { headers: bearer(b.token) })).status,
    ).toBe(404);
    expect(
      (
        await raw(base, 'GET', '/api/v1/account-verification-reports/0123456789abcdef0123456789abcdef', {
          headers: bearer(a.token),
        })
      ).status,
    ).toBe(404);
    const unknownAccount = await raw(base, 'POST', '/api/v1/account-verification-reports', {
      headers: bearer(a.token),
      json: { accountIds: ['nope'] },
    });
    expect(unknownAccount.status).toBe(400);
  });
});

describe('POST /api/v1/transfer (spec 2.7)', () => {
  const SCOPES = ['transfer:execute', 'transfer:read'];

  test('a bank transfer from se:// becomes a SignableOperation that reaches EXECUTED, raising signable-operation:update', async () => {
    const u = await userWithToken(t.sandbox, SCOPES);
    const acc = addAccount(t.sandbox.store, u.userId, { accountNumber: '8327-9234947790', balance: '2000000.00' });
    const seen: string[] = [];
    const body =
      '{"sourceUri":"se://83279234947790","destinationUri":"se://33001984","amount":1234567.89,"currency":"SEK","destinationMessage":"rent"}';
    const r = await raw(base, 'POST', '/api/v1/transfer', {
      headers: { ...bearer(u.token), 'content-type': 'application/json' },
      body,
    });
    expect(r.status).toBe(200);
    const op = r.json();
    expect(op).toMatchObject({
      status: 'CREATED',
      type: 'TRANSFER',
      userId: u.userId,
      credentialsId: acc.credentialsIds[0],
    });
    for (let i = 0; i < 100 && seen.at(-1) !== 'EXECUTED'; i++) {
      await new Promise((res) => setTimeout(res, 10));
      const s = await raw(base, 'GET', `/api/v1/transfer/${op.underlyingId}/status`, { headers: bearer(u.token) });
      if (seen.at(-1) !== s.json().status) seen.push(s.json().status);
    }
    expect(seen.at(-1)).toBe('EXECUTED');
    const events = t.sandbox.events.recent.filter(
      (e) => e.event === 'signable-operation:update' && e.orderKey === op.id,
    );
    expect(events.map((e) => e.content.status)).toEqual(['CREATED', 'EXECUTING', 'EXECUTED']);
    expect(events.every((e) => e.userId === u.userId)).toBe(true);
    // the amount was kept exactly as written, and booked exactly on the source account
    expect(String(events.at(-1)!.content.statusMessage)).toContain('1234567.89 SEK');
    expect(t.sandbox.store.accounts.get(acc.id)!.balance).toBe('765432.11');
    const booked = [...t.sandbox.store.transactions.values()].filter((x) => x.accountId === acc.id);
    expect(booked.map((x) => [x.amount, x.status, x.reference])).toEqual([['-1234567.89', 'BOOKED', 'rent']]);
  });

  test('more than the source account holds: FAILED when it executes, nothing booked, the balance kept', async () => {
    const u = await userWithToken(t.sandbox, SCOPES);
    const acc = addAccount(t.sandbox.store, u.userId, { balance: '100.00' });
    const card = addAccount(t.sandbox.store, u.userId, {
      type: 'CREDIT_CARD',
      balance: '-50.00',
      availableCredit: '500.00',
    });
    const send = async (source: string, amount: string) => {
      const r = await raw(base, 'POST', '/api/v1/transfer', {
        headers: bearer(u.token),
        json: { sourceUri: `platform://${source}`, destinationUri: 'se://33001984', amount, currency: 'SEK' },
      });
      expect(r.status).toBe(200);
      const id = r.json().underlyingId as string;
      for (let i = 0; i < 200; i++) {
        const s = (await raw(base, 'GET', `/api/v1/transfer/${id}/status`, { headers: bearer(u.token) })).json();
        if (['EXECUTED', 'FAILED', 'CANCELLED'].includes(s.status))
          return s as { status: string; statusMessage: string };
        await new Promise((res) => setTimeout(res, 10));
      }
      throw new Error('the transfer did not end');
    };
    const over = await send(acc.id, '100.01');
    expect(over.status).toBe('FAILED');
    expect(over.statusMessage).toBe(
      'Insufficient funds: 100.01 SEK is more than the balance of the source account, 100.00 SEK.',
    );
    expect(t.sandbox.store.accounts.get(acc.id)!.balance).toBe('100.00');
    expect([...t.sandbox.store.transactions.values()].filter((x) => x.accountId === acc.id)).toEqual([]);
    // all of it is fine
    expect((await send(acc.id, '100.00')).status).toBe('EXECUTED');
    expect(t.sandbox.store.accounts.get(acc.id)!.balance).toBe('0.00');
    // a credit card spends its available credit, not its (negative) balance
    expect((await send(card.id, '500.01')).statusMessage).toContain(
      'the available credit of the source account, 500.00 SEK',
    );
    expect((await send(card.id, '499.99')).status).toBe('EXECUTED');
  });

  test('platform:// source, payment destinations need a message', async () => {
    const u = await userWithToken(t.sandbox, SCOPES);
    const acc = addAccount(t.sandbox.store, u.userId);
    const send = (json: unknown) => raw(base, 'POST', '/api/v1/transfer', { headers: bearer(u.token), json });
    const ok = await send({
      sourceUri: `platform://${acc.id}`,
      destinationUri: 'se-bg://5050-1055',
      amount: '99.50',
      currency: 'SEK',
      destinationMessage: '1234567890',
    });
    expect(ok.status).toBe(200);
    // a transfer to the user's own savings account is booked on both sides
    const savings = addAccount(t.sandbox.store, u.userId, {
      type: 'SAVINGS',
      accountNumber: '9420-4172385',
      balance: '0.10',
    });
    const own = await send({
      sourceUri: `platform://${acc.id}`,
      destinationUri: 'se://94204172385',
      amount: 0.2,
      currency: 'SEK',
    });
    expect(own.status).toBe(200);
    for (let i = 0; i < 100 && t.sandbox.store.accounts.get(savings.id)!.balance === '0.10'; i++)
      await new Promise((r) => setTimeout(r, 10));
    // 0.1 + 0.2 exactly, not 0.30000000000000004
    expect(t.sandbox.store.accounts.get(savings.id)!.balance).toBe('0.30');
    const noMsg = await send({
      sourceUri: `platform://${acc.id}`,
      destinationUri: 'se-pg://4-2',
      amount: 10,
      currency: 'SEK',
    });
    expect(noMsg.status).toBe(400);
    expect(noMsg.text).toMatch(/destinationMessage is required/);
  });

  test('URIs are validated; the source must belong to the user; 400 for an empty payload', async () => {
    const u = await userWithToken(t.sandbox, SCOPES);
    const acc = addAccount(t.sandbox.store, u.userId);
    const other = await userWithToken(t.sandbox, SCOPES);
    const theirs = addAccount(t.sandbox.store, other.userId, { accountNumber: '5000-1111111' });
    const send = (json: unknown) => raw(base, 'POST', '/api/v1/transfer', { headers: bearer(u.token), json });
    const good = { sourceUri: `platform://${acc.id}`, destinationUri: 'se://33001984', amount: 10, currency: 'SEK' };
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ ...good, sourceUri: 'se-bg://5050-1055' }, 400, /scheme "se-bg" is not allowed/],
      [{ ...good, sourceUri: 'https://bank' }, 400, /not allowed/],
      [{ ...good, destinationUri: `platform://${acc.id}` }, 400, /not allowed/],
      [{ ...good, destinationUri: 'se://12ab' }, 400, /digits only/],
      [{ ...good, destinationUri: 'se-bg://12' }, 400, /BankGiro/],
      [{ ...good, amount: -5 }, 400, /positive/],
      [{ ...good, amount: 0 }, 400, /greater than zero/],
      [{ ...good, amount: '1e3' }, 400, /positive decimal/],
      [{ ...good, currency: 'EUR' }, 400, /does not match/],
      [{ ...good, currency: 'kr' }, 400, /ISO 4217/],
      [{ ...good, sourceUri: `platform://${theirs.id}` }, 404, /does not belong to the user/],
      [{ ...good, sourceUri: 'se://50001111111' }, 404, /does not belong to the user/],
    ];
    for (const [body, status, msg] of cases) {
      const r = await send(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.text, JSON.stringify(body)).toMatch(msg);
    }
    const empty = await raw(base, 'POST', '/api/v1/transfer', { headers: bearer(u.token) });
    expect(empty.status).toBe(400);
    expect(empty.text).toBe('The provided payload is empty.');
  });
});
