/**
 * A typed client for the Sevens rules service, for browsers, Deno, Bun and Node 18+ (it needs only
 * `fetch`). Its types come from `openapi.d.ts`, which openapi-typescript generates from the service's
 * OpenAPI document (`openapi/openapi.json` in the repository, `GET /openapi.json` on a running service):
 *
 *     npx openapi-typescript@7.13.0 openapi/openapi.json --output openapi.d.ts
 *
 * Every operation is a POST of a JSON body to an exact path (`/v1/games/sjuan/apply`); the path names the
 * body's and the answer's types, so a wrong field, a missing seat or a move of another game does not
 * compile. A refusal (4xx or 5xx) is thrown as a {@link ProblemError} carrying the problem details the
 * service sent (`code`, `detail`, `errors` with the JSON path of each offending field).
 *
 *     const rules = new RulesClient("http://127.0.0.1:8000");
 *     const { state } = await rules.post("/v1/games/sjuan/new", { players: 3 });
 *     const { moves } = await rules.post("/v1/games/sjuan/moves", { state });
 */
import type { components, paths } from "./openapi";

export type { components, paths };

/** Every schema of the contract by name: `Schemas["SjuanState"]`, `Schemas["SevensMove"]`, ... */
export type Schemas = components["schemas"];

/** The paths that take a POST: every game operation. */
export type PostPath = {
  [P in keyof paths]: paths[P] extends { post: object } ? P : never;
}[keyof paths];

/** The JSON body a path takes. */
export type RequestOf<P extends PostPath> = P extends PostPath
  ? paths[P] extends { post: { requestBody: { content: { "application/json": infer Body } } } }
    ? Body
    : never
  : never;

/** The JSON answer a path gives when it succeeds (200). */
export type AnswerOf<P extends PostPath> = P extends PostPath
  ? paths[P] extends { post: { responses: { 200: { content: { "application/json": infer Answer } } } } }
    ? Answer
    : never
  : never;

/** The id of every game the contract lists (`"sjuan"`, `"fan-tan"`, ...). */
export type GameId = {
  [P in PostPath]: P extends `/v1/games/${infer Game}/new` ? (Game extends `${string}/${string}` ? never : Game) : never;
}[PostPath];

/** The operations on a state the caller holds (plain mode). */
export type PlainOperation = "new" | "moves" | "apply" | "view" | "score" | "seed" | "verify" | "bot" | "sample";

/** The operations on a sealed token (referee mode: the service must have keys). */
export type SealedOperation = "new" | "join" | "fill" | "moves" | "apply" | "view" | "score" | "bot" | "sample";

/** The path of a plain operation of a game. */
export type PlainPath<G extends GameId, O extends PlainOperation> = `/v1/games/${G}/${O}` & PostPath;

/** The path of a sealed operation of a game. */
export type SealedPath<G extends GameId, O extends SealedOperation> = `/v1/games/${G}/sealed/${O}` & PostPath;

/** The problem details of a refusal (RFC 9457), as every game's `<Game>Problem` has them. */
export type Problem = Schemas["Problem"];

/** The code of the problem this client makes for an answer it cannot read (see {@link ProblemError}). */
export const UNEXPECTED_ANSWER = "client/unexpected-answer";

/** A refusal by the service: `problem` is its body; `status` the HTTP status. An answer the client cannot
 * read (a refusal without problem details, or a success that is not a JSON object) is one too, with the
 * code {@link UNEXPECTED_ANSWER}. */
export class ProblemError extends Error {
  readonly status: number;
  readonly problem: Problem;

  constructor(status: number, problem: Problem) {
    super(`${problem.code}: ${problem.detail}`);
    this.name = "ProblemError";
    this.status = status;
    this.problem = problem;
  }
}

/** The list of games (`GET /v1/games`). */
export type GamesAnswer = paths["/v1/games"]["get"]["responses"][200]["content"]["application/json"];

export class RulesClient {
  private readonly base: string;
  private readonly fetcher: typeof fetch;

  /** `base` is the service's URL without a trailing slash ("" for the page's own origin). */
  constructor(base = "", fetcher: typeof fetch = (input, init) => fetch(input, init)) {
    this.base = base.replace(/\/+$/, "");
    this.fetcher = fetcher;
  }

  /** Every game, its table sizes and options. */
  async games(): Promise<GamesAnswer> {
    return (await this.send("/v1/games", { method: "GET" })) as GamesAnswer;
  }

  /** POST `body` to `path`: the answer on success, a {@link ProblemError} otherwise. */
  async post<P extends PostPath>(path: P, body: RequestOf<P>): Promise<AnswerOf<P>> {
    return (await this.postUntyped(path, body)) as AnswerOf<P>;
  }

  /** POST to a path the generated types do not know (an operation newer than them): the answer is
   * `unknown` until the caller checks it; a refusal is a {@link ProblemError} as with {@link post}. */
  async postUntyped(path: string, body: unknown): Promise<unknown> {
    return this.send(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  private async send(path: string, init: RequestInit): Promise<unknown> {
    const response = await this.fetcher(this.base + path, init);
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    if (!response.ok) {
      const detail = `The service answered ${response.status} without problem details`;
      throw new ProblemError(response.status, isProblem(body) ? body : fallbackProblem(response.status, detail, text));
    }
    if (typeof body !== "object" || body === null) {
      // every answer of the service is a JSON object: anything else was cut short or came from elsewhere
      const detail = `The service answered ${response.status} with something other than a JSON object`;
      throw new ProblemError(response.status, fallbackProblem(response.status, detail, text));
    }
    return body;
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === "object" && body !== null && "code" in body && "detail" in body;
}

/** The problem of an answer the client cannot read: a refusal without problem details (a proxy's error
 * page), or a success that is not a JSON object (a cut connection). `text` is the start of what came. */
function fallbackProblem(status: number, detail: string, text: string): Problem {
  return {
    type: "about:blank",
    title: "Unexpected answer",
    status,
    code: UNEXPECTED_ANSWER,
    detail: `${detail}: ${JSON.stringify(text.slice(0, 200))}`,
    errors: [],
    more_errors: 0,
    request_id: "",
  } as Problem;
}
