// Account verification reports (spec 4.1, 2.7): temporary (1 hour), with a PDF rendering.
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
import { readCreated, readObject } from './shape.js';

export const REPORT_TEMPLATES = ['standard-1.0'];

export interface CreateReportRequest {
  accountIds?: string[];
  externalReference?: string;
}

export async function createReport(api: ApiClient, req: CreateReportRequest): Promise<Record<string, unknown>> {
  return readCreated(api, EP.reports.create, 'id', { json: req });
}

export async function getReport(api: ApiClient, reportId: string): Promise<Record<string, unknown>> {
  return readObject(api, EP.reports.get, { path: { id: reportId } });
}

/** The PDF bytes exactly as served. */
export async function reportPdf(api: ApiClient, reportId: string, template: string): Promise<Buffer> {
  return api.data<Buffer>(EP.reports.pdf, { path: { id: reportId }, query: { template } });
}
