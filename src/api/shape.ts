// The shape of a 2xx JSON answer, checked where it is read: a list endpoint's body is an object whose
// key holds a list of objects, a single-object endpoint's body is an object. Anything else ({}, [],
// "hello", a null or a string where the list should be, null/1/"x" as items) is not what the endpoint
// returns: a ServerError (exit 7) naming the endpoint and what was wrong, never an empty list.
import type { Endpoint } from '../contract/index.js';
import { ExactNumber, writeJson } from '../contract/exact-json.js';
import type { ServerError } from '../errors.js';
import type { HttpResponse } from '../http/client.js';
import { notWhatItReturns, type ApiClient, type CallParams } from './client.js';

export type Item = Record<string, unknown>;

/** A JSON object (not a list, not null, not a number kept as its literal). */
export function isObject(v: unknown): v is Item {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ExactNumber);
}

/** What a JSON value is, for a message: "null", "a list", "a string", "a number", ... */
export function kindOf(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof ExactNumber || typeof v === 'number') return 'a number';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return `${String(v)}`;
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

/** What the items of a list must be. */
export type ItemKind = 'object' | 'string';

export interface ListShape {
  /** The body may also be the list itself (the endpoint is documented, or served, both ways). */
  bare?: boolean;
  /** What each item must be (default: an object). */
  items?: ItemKind;
}

/** The first bytes of the body as JSON, for the message (the raw text is gone once it is parsed). */
function bodyText(res: HttpResponse<unknown>): string {
  if (res.data === undefined) return '';
  try {
    return writeJson(res.data);
  } catch {
    return '';
  }
}

/** The ServerError (exit 7) for an answer that is not what the endpoint returns, with its first bytes. */
export function notTheShape(ep: Endpoint, res: HttpResponse<unknown>, what: string): ServerError {
  return notWhatItReturns(ep, res, what, bodyText(res));
}

function fail(ep: Endpoint, res: HttpResponse<unknown>, what: string): never {
  throw notTheShape(ep, res, what);
}

function itemOk(v: unknown, kind: ItemKind): boolean {
  return kind === 'string' ? typeof v === 'string' : isObject(v);
}

/** Every item of `list` is of the kind, else the error naming the first that is not. */
function checkItems(ep: Endpoint, res: HttpResponse<unknown>, list: unknown[], name: string, kind: ItemKind): void {
  for (let i = 0; i < list.length; i++) {
    if (!itemOk(list[i], kind))
      fail(
        ep,
        res,
        `an item of ${name} that is not ${kind === 'string' ? 'a string' : 'an object'} (${name}[${i}] is ${kindOf(list[i])})`,
      );
  }
}

/**
 * The list under `key` of a list endpoint's answer: the body must be a JSON object whose `key` is a
 * list of objects (of strings with `items: 'string'`); with `bare`, a body that is itself such a list
 * is taken as it is. Anything else is a ServerError naming the endpoint and what was wrong.
 */
export function listIn<T = Item>(ep: Endpoint, res: HttpResponse<unknown>, key: string, o: ListShape = {}): T[] {
  const body = res.data;
  const kind = o.items ?? 'object';
  if (o.bare && Array.isArray(body)) {
    checkItems(ep, res, body, 'the list', kind);
    return body as T[];
  }
  if (!isObject(body))
    fail(
      ep,
      res,
      `a body that is ${o.bare ? 'neither a list nor' : 'not'} a JSON object with ${key} (it is ${kindOf(body)})`,
    );
  const list = body[key];
  if (!Array.isArray(list))
    fail(
      ep,
      res,
      `no ${key} list (${key} is ${kindOf(list)}${list === undefined || list === null ? '' : ', not a list'})`,
    );
  checkItems(ep, res, list, key, kind);
  return list as T[];
}

/** The body of an endpoint that answers a bare list (insights, calendar periods, statistics). */
export function arrayBody<T = Item>(ep: Endpoint, res: HttpResponse<unknown>, o: { items?: ItemKind } = {}): T[] {
  const body = res.data;
  if (!Array.isArray(body)) fail(ep, res, `a body that is not a list (it is ${kindOf(body)})`);
  checkItems(ep, res, body, 'the list', o.items ?? 'object');
  return body as T[];
}

/** The body of a single-object endpoint: a JSON object, else the error. No field is required here. */
export function objectBody<T = Item>(ep: Endpoint, res: HttpResponse<unknown>): T {
  if (!isObject(res.data)) fail(ep, res, `a body that is not a JSON object (it is ${kindOf(res.data)})`);
  return res.data as T;
}

/** The object under `key` of an answer (`{budgetSpecification: {...}}`), else the error. */
export function objectIn<T = Item>(ep: Endpoint, res: HttpResponse<unknown>, key: string): T {
  const v = objectBody(ep, res)[key];
  if (!isObject(v)) fail(ep, res, `no ${key} object (${key} is ${kindOf(v)})`);
  return v as T;
}

/** GET (or call) a list endpoint and return the list under `key`, checked (listIn). */
export async function readList<T = Item>(
  api: ApiClient,
  ep: Endpoint,
  key: string,
  p: CallParams = {},
  o: ListShape = {},
): Promise<T[]> {
  return listIn<T>(ep, await api.call(ep, p), key, o);
}

/** Call an endpoint that answers a bare list, checked (arrayBody). */
export async function readArray<T = Item>(api: ApiClient, ep: Endpoint, p: CallParams = {}): Promise<T[]> {
  return arrayBody<T>(ep, await api.call(ep, p));
}

/** Call a single-object endpoint, checked (objectBody). */
export async function readObject<T = Item>(api: ApiClient, ep: Endpoint, p: CallParams = {}): Promise<T> {
  return objectBody<T>(ep, await api.call(ep, p));
}

/** Where a created object is in its answer: under `key` (`{consent: {...}}`), or bare too when `bare`. */
export interface CreatedIn {
  key: string;
  bare?: boolean;
}

/**
 * Call an endpoint that creates something and answers it with its id under `idKey`: an answer
 * without that id as a non-empty string is not what the endpoint returns (exit 7), not a success a
 * script would read `null` (or "acts as user undefined") from. With `within`, the object is the
 * one under that key (and its id is looked for there).
 */
export async function readCreated<T = Item>(
  api: ApiClient,
  ep: Endpoint,
  idKey: string,
  p: CallParams = {},
  within?: CreatedIn,
): Promise<T> {
  const res = await api.call(ep, p);
  const created = !within
    ? objectBody<Item>(ep, res)
    : within.bare
      ? objectMaybeIn<Item>(ep, res, within.key)
      : objectIn<Item>(ep, res, within.key);
  const id = created[idKey];
  if (typeof id !== 'string' || id === '')
    fail(ep, res, `no ${idKey} for what it created (${idKey} is ${id === '' ? 'empty' : kindOf(id)})`);
  return created as T;
}

/** Call an endpoint that answers `{key: {...}}` and return that object, checked (objectIn). */
export async function readObjectIn<T = Item>(
  api: ApiClient,
  ep: Endpoint,
  key: string,
  p: CallParams = {},
): Promise<T> {
  return objectIn<T>(ep, await api.call(ep, p), key);
}

/** The object of an answer that is either wrapped under `key` or bare, else the error. */
export function objectMaybeIn<T = Item>(ep: Endpoint, res: HttpResponse<unknown>, key: string): T {
  const body = objectBody<Record<string, unknown>>(ep, res);
  return body[key] === undefined ? (body as T) : objectIn<T>(ep, res, key);
}

/** Like readObjectIn, for an endpoint that answers the object either wrapped under `key` or bare. */
export async function readObjectMaybeIn<T = Item>(
  api: ApiClient,
  ep: Endpoint,
  key: string,
  p: CallParams = {},
): Promise<T> {
  return objectMaybeIn<T>(ep, await api.call(ep, p), key);
}
