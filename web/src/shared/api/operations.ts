// The API's operations as types, read from the generated `paths` (schema.d.ts): which paths answer a method,
// and the path parameters, query, body and `data` of each. The client checks every call against them, so a
// path, parameter or field the server renamed or dropped is a compile error in the dashboard.
import type { paths } from './schema.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The API paths (templates such as `/contacts/{id}`) that answer a method. */
export type PathWith<M extends Method> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

/** The operation at a path and method. */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

type PathParamsOf<O> = O extends { parameters: { path: infer T } } ? T : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Exclude<Q, undefined> : never;
type JsonBodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Successes<O> = O extends { responses: infer R } ? R[Extract<keyof R, 200 | 201 | 202 | 204>] : never;
type DataIn<R> = R extends { content: { 'application/json': { data: infer D } } } ? D : undefined;

/** The `data` of an operation's success answer (undefined for an empty one, e.g. 202). */
export type DataOf<O> = DataIn<Successes<O>>;

/** A body sent as is (CSV text) instead of JSON. */
export interface RawBody {
  text: string;
  contentType: string;
}

/** What a call passes: path parameters when the path has any, the query and the JSON body the operation takes. */
export type CallOptions<O> = ([PathParamsOf<O>] extends [never] ? unknown : { path: PathParamsOf<O> }) &
  ([QueryOf<O>] extends [never] ? unknown : { query?: QueryOf<O> }) &
  ([JsonBodyOf<O>] extends [never] ? unknown : { body?: JsonBodyOf<O> }) & { rawBody?: RawBody };

/** The options argument of a call: required only when the path has parameters. */
export type CallArgs<O> = object extends CallOptions<O> ? [options?: CallOptions<O>] : [options: CallOptions<O>];

/** The query a GET of a path takes (list filters, cursor, limit). */
export type Query<P extends PathWith<'get'>> = QueryOf<Operation<P, 'get'>>;

/** The JSON body of an operation. */
export type Body<P extends PathWith<M>, M extends Method> = JsonBodyOf<Operation<P, M>>;

/** The `data` a GET of a path answers. */
export type Data<P extends PathWith<M>, M extends Method = 'get'> = DataOf<Operation<P, M>>;
