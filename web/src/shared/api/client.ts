// The dashboard's only way to the server: the public HTTP API with the signed-in key,
// every call typed by the operation it reaches (operations.ts).
import type { CallArgs, CallOptions, DataOf, Method, Operation, PathWith } from './operations.ts';

export interface FieldError {
  field: string;
  message: string;
  code: string;
}

/** An error answer of the API (or no answer at all: status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** One page of a list endpoint. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

type Scalar = string | number | boolean | null | undefined;

function toQueryString(query: Record<string, Scalar> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `/contacts/{id}` with its parameters filled in, each encoded as one path segment. */
function fillPath(template: string, params: Record<string, string> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

async function readError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; errors?: FieldError[] } };
    return new ApiError(response.status, body.error?.code ?? 'ERROR', body.error?.message ?? response.statusText, body.error?.errors ?? []);
  } catch {
    return new ApiError(response.status, 'ERROR', `The server answered ${response.status} ${response.statusText}`);
  }
}

interface LooseOptions {
  path?: Record<string, string>;
  query?: Record<string, Scalar>;
  body?: unknown;
  rawBody?: { text: string; contentType: string };
}

/** A client bound to one bearer token: a project's secret key, or the admin token for /admin/*. */
export class Api {
  constructor(
    private readonly token: string,
    private readonly onUnauthorized?: (error: ApiError) => void,
  ) {}

  /** Calls the operation at `path` (a template of the OpenAPI document) and answers its `data`. */
  async call<M extends Method, P extends PathWith<M>>(method: M, path: P, ...[options]: CallArgs<Operation<P, M>>): Promise<DataOf<Operation<P, M>>> {
    const { path: params, query, body: json, rawBody } = (options ?? {}) as CallOptions<Operation<P, M>> & LooseOptions;
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    let body: string | undefined;
    if (rawBody) {
      headers['Content-Type'] = rawBody.contentType;
      body = rawBody.text;
    } else if (json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(json);
    }
    const url = `${fillPath(path, params)}${toQueryString(query)}`;
    const response = await this.fetchOk(url, { method: method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    if (!text) return undefined as DataOf<Operation<P, M>>;
    return (JSON.parse(text) as { data: DataOf<Operation<P, M>> }).data;
  }

  /** A GET of bytes (an attachment, a raw message) at a path the feature's api.ts built: the body as a Blob. */
  async download(path: string): Promise<Blob> {
    return (await this.fetchOk(path, { headers: { Authorization: `Bearer ${this.token}` } })).blob();
  }

  /** fetch, with a network failure and any non-2xx answer thrown as an ApiError (a 401 also ends the session). */
  private async fetchOk(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the Herald server. Is it running?');
    }
    if (!response.ok) {
      const error = await readError(response);
      if (response.status === 401) this.onUnauthorized?.(error);
      throw error;
    }
    return response;
  }

  get<P extends PathWith<'get'>>(path: P, ...args: CallArgs<Operation<P, 'get'>>) {
    return this.call('get', path, ...args);
  }

  post<P extends PathWith<'post'>>(path: P, ...args: CallArgs<Operation<P, 'post'>>) {
    return this.call('post', path, ...args);
  }

  patch<P extends PathWith<'patch'>>(path: P, ...args: CallArgs<Operation<P, 'patch'>>) {
    return this.call('patch', path, ...args);
  }

  delete<P extends PathWith<'delete'>>(path: P, ...args: CallArgs<Operation<P, 'delete'>>) {
    return this.call('delete', path, ...args);
  }
}
