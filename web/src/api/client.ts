// The dashboard's only way to the server: the public HTTP API with the signed-in key (CONTRACT §3 envelopes).

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

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Sent as is (e.g. CSV text) with this content type instead of JSON. */
  rawBody?: { text: string; contentType: string };
}

function toQueryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; errors?: FieldError[] } };
    return new ApiError(response.status, body.error?.code ?? 'ERROR', body.error?.message ?? response.statusText, body.error?.errors ?? []);
  } catch {
    return new ApiError(response.status, 'ERROR', `The server answered ${response.status} ${response.statusText}`);
  }
}

/** A client bound to one bearer token: a project's secret key, or the admin token for /admin/*. */
export class Api {
  constructor(
    private readonly token: string,
    private readonly onUnauthorized?: (error: ApiError) => void,
  ) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    let body: string | undefined;
    if (options.rawBody) {
      headers['Content-Type'] = options.rawBody.contentType;
      body = options.rawBody.text;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await fetch(`${path}${toQueryString(options.query)}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the Herald server. Is it running?');
    }
    if (!response.ok) {
      const error = await readError(response);
      if (response.status === 401) this.onUnauthorized?.(error);
      throw error;
    }
    const text = await response.text();
    if (!text) return undefined as T;
    const parsed = JSON.parse(text) as { data: T };
    return parsed.data;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, query ? { query } : {});
  }

  list<T>(path: string, query?: Query): Promise<Page<T>> {
    return this.get<Page<T>>(path, query);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body === undefined ? {} : { body });
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, { body });
  }

  delete<T = { id: string; deleted: true }>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }
}

/** `encodeURIComponent` for ids placed in paths. */
export const seg = (value: string): string => encodeURIComponent(value);
