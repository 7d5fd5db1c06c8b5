// The dashboard's only way to the server: the public HTTP API with the signed-in key or the signed-in person's
// session cookie, every call typed by the operation it reaches (operations.ts).
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
    return new ApiError(
      response.status,
      body.error?.code ?? 'ERROR',
      body.error?.message ?? response.statusText,
      body.error?.errors ?? [],
    );
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

/**
 * A signed-in person's session: the browser sends the HttpOnly cookie itself; a request names its project
 * (Herald-Project) and, when it changes something, carries the session's CSRF token. Both are null before sign-in.
 */
export interface PersonCredentials {
  csrfToken: string | null;
  projectId: string | null;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a client does with some errors besides throwing them. */
export interface ApiHandlers {
  /** A 401: the key, token or session no longer works (the dashboard signs out). */
  onUnauthorized?: (error: ApiError) => void;
  /** A 403 TWO_FACTOR_REQUIRED: the project asks the signed-in person to set up two-factor first. */
  onTwoFactorRequired?: (error: ApiError) => void;
}

/**
 * A client bound to one bearer token (a project's secret key, or the admin token for /admin/*), or to a
 * signed-in person's session cookie.
 */
export class Api {
  private readonly handlers: ApiHandlers;

  constructor(
    private readonly credentials: string | PersonCredentials,
    handlers: ApiHandlers | ((error: ApiError) => void) = {},
  ) {
    this.handlers = typeof handlers === 'function' ? { onUnauthorized: handlers } : handlers;
  }

  /** A client of nobody signed in yet: sign-in, setup, password reset, invitations. */
  static anonymous(): Api {
    return new Api({ csrfToken: null, projectId: null });
  }

  /** The headers that say who is calling: the bearer token, or the project and CSRF token of a session. */
  private authHeaders(method: string): Record<string, string> {
    if (typeof this.credentials === 'string') return { Authorization: `Bearer ${this.credentials}` };
    const headers: Record<string, string> = {};
    const { projectId, csrfToken } = this.credentials;
    if (projectId) headers['Herald-Project'] = projectId;
    if (csrfToken && UNSAFE_METHODS.has(method)) headers['X-CSRF-Token'] = csrfToken;
    return headers;
  }

  /** Calls the operation at `path` (a template of the OpenAPI document) and answers its `data`. */
  async call<M extends Method, P extends PathWith<M>>(
    method: M,
    path: P,
    ...[options]: CallArgs<Operation<P, M>>
  ): Promise<DataOf<Operation<P, M>>> {
    const { path: params, query, body: json, rawBody } = (options ?? {}) as CallOptions<Operation<P, M>> & LooseOptions;
    const headers: Record<string, string> = { ...this.authHeaders(method.toUpperCase()), Accept: 'application/json' };
    let body: string | undefined;
    if (rawBody) {
      headers['Content-Type'] = rawBody.contentType;
      body = rawBody.text;
    } else if (json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(json);
    }
    const url = `${fillPath(path, params)}${toQueryString(query)}`;
    const response = await this.fetchOk(url, {
      method: method.toUpperCase(),
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    if (!text) return undefined as DataOf<Operation<P, M>>;
    return (JSON.parse(text) as { data: DataOf<Operation<P, M>> }).data;
  }

  /** A GET of bytes (an attachment, a raw message) at a path the feature's api.ts built: the body as a Blob. */
  async download(path: string): Promise<Blob> {
    return (await this.fetchOk(path, { headers: this.authHeaders('GET') })).blob();
  }

  /**
   * fetch (with the session cookie, never to another origin), with a network failure and any non-2xx answer thrown
   * as an ApiError; a 401 also ends the session.
   */
  private async fetchOk(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the Herald server. Is it running?');
    }
    if (!response.ok) {
      const error = await readError(response);
      if (response.status === 401) this.handlers.onUnauthorized?.(error);
      if (response.status === 403 && error.code === 'TWO_FACTOR_REQUIRED') this.handlers.onTwoFactorRequired?.(error);
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

  put<P extends PathWith<'put'>>(path: P, ...args: CallArgs<Operation<P, 'put'>>) {
    return this.call('put', path, ...args);
  }

  patch<P extends PathWith<'patch'>>(path: P, ...args: CallArgs<Operation<P, 'patch'>>) {
    return this.call('patch', path, ...args);
  }

  delete<P extends PathWith<'delete'>>(path: P, ...args: CallArgs<Operation<P, 'delete'>>) {
    return this.call('delete', path, ...args);
  }
}
