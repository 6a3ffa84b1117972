/**
 * The table's link to the service (`web/play.ts`): the REST operations through the typed client of
 * `clients/typescript`, and the two ways a match is held. A {@link PlainSession} holds the state and shows
 * seat 0 only what seat 0's view and its own events show; a {@link RefereeSession} holds a sealed token and
 * seat 0's key, and the bots' keys, used only to ask for their moves and apply them: those answers' events
 * are as the bot sees them (a card it draws face down included), and the session keeps nothing of them.
 */
import {
  type AnswerOf,
  type GameId,
  type GamesAnswer,
  type PlainOperation,
  type PlainPath,
  ProblemError,
  type RequestOf,
  RulesClient,
  type SealedOperation,
  UNEXPECTED_ANSWER,
  type SealedPath,
} from "../clients/typescript/client";

export type GameInfo = GamesAnswer["games"][number];
export type OptionInfo = GameInfo["options"][number];
export type State = AnswerOf<PlainPath<GameId, "new">>["state"];
export type View = AnswerOf<PlainPath<GameId, "view">>;
export type Move = AnswerOf<PlainPath<GameId, "moves">>["moves"][number];
export type GameEvent = AnswerOf<PlainPath<GameId, "apply">>["events"][number];
export type Score = AnswerOf<PlainPath<GameId, "score">>;
export type Outcome = Score["outcome"];
export type Options = Record<string, boolean | number | null>;
export type Level = "random" | "rules" | "search";

/** The seat the person plays. */
export const HUMAN = 0;
/** The service's REST client: the page is served by the service it plays on (same origin). */
export const rules = new RulesClient("");

export function plain<O extends PlainOperation>(game: GameId, operation: O, body: object): Promise<AnswerOf<PlainPath<GameId, O>>> {
  const path = `/v1/games/${game}/${operation}` as PlainPath<GameId, O>;
  // a plain operation is a function of its request: asking again answers the same
  return onceMoreIfUnanswered(() => rules.post(path, body as RequestOf<PlainPath<GameId, O>>));
}

/** The sealed operations that must not be sent twice: a join is never answered twice (README, "One
 * successor per version"), and each `new` opens another table in the service's match store. */
const SENT_ONCE: ReadonlySet<SealedOperation> = new Set<SealedOperation>(["new", "join"]);

function sealed<O extends SealedOperation>(game: GameId, operation: O, body: object): Promise<AnswerOf<SealedPath<GameId, O>>> {
  const path = `/v1/games/${game}/sealed/${operation}` as SealedPath<GameId, O>;
  const send = (): Promise<AnswerOf<SealedPath<GameId, O>>> => rules.post(path, body as RequestOf<SealedPath<GameId, O>>);
  // moves, view, score and bot only read the token; an apply or fill sent again from the same token is
  // answered as the first was when the service keeps a match store (README, "One successor per version"),
  // and otherwise seals another successor of the same state
  return SENT_ONCE.has(operation) ? send() : onceMoreIfUnanswered(send);
}

/** Whether `error` means that no answer arrived whole (the connection failed, or what came was not an
 * answer), as opposed to a refusal the service explained. */
function unanswered(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof ProblemError && error.problem.code === UNEXPECTED_ANSWER);
}

/** `send()`, sent a second time when the first brought no answer: networks drop connections, and a
 * person at the table should not lose a match to one. A second failure is shown as it is. */
export async function onceMoreIfUnanswered<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!unanswered(error)) throw error;
    console.warn("no answer; asking once more:", error instanceof Error ? error.message : String(error));
    return await send();
  }
}

/** A uniformly random index below `n`, from the browser's CSPRNG. */
function randomBelow(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word);
  while ((word[0] ?? 0) >= limit);
  return (word[0] ?? 0) % n;
}

/** Who acts next, and the person's legal moves (empty when seat 0 is not to act). */
export interface Turn {
  toAct: number[];
  mine: Move[];
}

/** What a session keeps across a reload of the page (JSON, in the tab's `sessionStorage`: see
 * `Table.save` in `play.ts`). Plain: the state, and the events seat 0 has not been shown yet. Referee:
 * the token, every seat's key (the page is the table's host) and how far seat 0 has been shown. */
export type SavedSession =
  | { mode: "plain"; state: State; pending: GameEvent[] }
  | { mode: "referee"; token: string; seatKeys: string[]; ownEntropy: string; seen: number; shownDeal: number };

export interface Session {
  readonly mode: "plain" | "referee";
  /** The entropy string this browser contributed to the deals (referee mode), else null. */
  readonly ownEntropy: string | null;
  turn(): Promise<Turn>;
  /** Seat 0's view now (after {@link turn}). */
  view(): Promise<View>;
  /** The events seat 0 has not been shown yet; `now` when the page must be up to date (seat 0's turn,
   * the end of the match), otherwise a session may keep them for a later call. */
  events(now: boolean): Promise<GameEvent[]>;
  botMove(seat: number): Promise<Move>;
  apply(move: Move): Promise<void>;
  score(): Promise<Score>;
  /** What {@link resumed} needs to go on with this match after a reload. */
  saved(): SavedSession;
}

/** The session `saved` describes, as it stood when it was saved. */
export function resumed(settings: MatchSettings, saved: SavedSession, bots: boolean): Session {
  if (saved.mode === "plain") return new PlainSession(settings, saved.state, saved.pending, bots);
  const session = new RefereeSession(settings, saved.token, saved.seatKeys, bots, saved.ownEntropy);
  session.shown(saved.seen, saved.shownDeal);
  return session;
}

export interface MatchSettings {
  game: GameInfo;
  players: number;
  options: Options;
  level: Level;
}

/** The games whose draws are face down (Domino fan tan's stock, Sedmice's refill): another seat's copy
 * of a `drew` event says only that it happened. California Jack's draw of the face-up card is public (its
 * face-down draw comes without its card from the service). */
const FACE_DOWN_DRAWS: ReadonlySet<string> = new Set(["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan", "sedmice"]);

/** `event` as seat 0 may see it, as the service's sealed answers show it to seat 0 (null: not at all). */
function forSeat0(game: string, event: GameEvent): GameEvent | null {
  const seats = event as { player?: unknown; from_player?: unknown };
  if (event.type === "drew" && seats.player !== HUMAN && FACE_DOWN_DRAWS.has(game)) return { ...event, card: null } as GameEvent;
  // My Ship Sails: a passed card is seen by its giver and its receiver only
  if (event.type === "received" && seats.player !== HUMAN && seats.from_player !== HUMAN) return null;
  return event;
}

export class PlainSession implements Session {
  readonly mode = "plain";
  readonly ownEntropy = null;
  private state: State;
  private pending: GameEvent[];
  private everyMove: Move[] = [];

  constructor(
    private readonly settings: MatchSettings,
    state: State,
    events: GameEvent[],
    private readonly bots: boolean,
  ) {
    this.state = state;
    this.pending = events;
  }

  static async start(settings: MatchSettings, bots: boolean): Promise<PlainSession> {
    const answer = await plain(settings.game.id as GameId, "new", {
      players: settings.players,
      options: settings.options,
    });
    return new PlainSession(settings, answer.state, answer.events, bots);
  }

  private get game(): GameId {
    return this.settings.game.id as GameId;
  }

  async turn(): Promise<Turn> {
    const listed = await plain(this.game, "moves", { state: this.state });
    this.everyMove = listed.moves;
    return { toAct: listed.to_act, mine: listed.moves.filter((move) => move.player === HUMAN) };
  }

  view(): Promise<View> {
    return plain(this.game, "view", { state: this.state, player: HUMAN });
  }

  async events(): Promise<GameEvent[]> {
    // the page holds every hand in plain mode; it shows seat 0 no card an event shows only to other seats
    const events = this.pending.flatMap((event) => forSeat0(this.game, event) ?? []);
    this.pending = [];
    return events;
  }

  async botMove(seat: number): Promise<Move> {
    // the random level is a uniform choice among the seat's legal moves, which the page has just been
    // given: it needs no request of its own
    if (this.bots && this.settings.level !== "random") {
      const answer = await plain(this.game, "bot", { state: this.state, player: seat, level: this.settings.level });
      return answer.move;
    }
    const choices = this.everyMove.filter((move) => move.player === seat);
    const choice = choices[randomBelow(choices.length)];
    if (choice === undefined) throw new Error(`seat ${seat} has no legal move`);
    return choice;
  }

  async apply(move: Move): Promise<void> {
    const answer = await plain(this.game, "apply", { state: this.state, move });
    this.state = answer.state;
    this.pending.push(...answer.events);
  }

  score(): Promise<Score> {
    return plain(this.game, "score", { state: this.state });
  }

  saved(): SavedSession {
    return { mode: "plain", state: this.state, pending: [...this.pending] };
  }
}

/** A sealed token keeps the events of its last 16 versions: the page catches up well before that. */
const CATCH_UP_VERSIONS = 12;

export class RefereeSession implements Session {
  readonly mode = "referee";
  /** The version whose events seat 0 has been shown. */
  private seen = 0;
  private version = 1;
  private lastView: View | null = null;
  private shownDeal = 0;

  constructor(
    private readonly settings: MatchSettings,
    private token: string,
    /** The bots' seat keys are used only to ask for a bot's move and to apply it. */
    private readonly seatKeys: string[],
    private readonly bots: boolean,
    readonly ownEntropy: string,
  ) {}

  static async start(settings: MatchSettings, bots: boolean): Promise<RefereeSession> {
    const game = settings.game.id as GameId;
    const entropy = entropyString();
    // sealed new opens a table: the page, as host, fills the bots' seats and then joins seat 0 with this
    // browser's own entropy, so the cards are dealt from it
    const table = await sealed(game, "new", { players: settings.players, options: settings.options });
    const botSeats = Array.from({ length: settings.players - 1 }, (_, index) => index + 1);
    const filled = await sealed(game, "fill", { token: table.token, host_key: table.host_key, seats: botSeats });
    const joined = await sealed(game, "join", { token: filled.token, seat: HUMAN, entropy });
    const keys = filled.seat_keys.map((key, seat) => (seat === HUMAN ? joined.seat_key : (key ?? "")));
    return new RefereeSession(settings, joined.token, keys, bots, entropy);
  }

  private get game(): GameId {
    return this.settings.game.id as GameId;
  }

  private key(seat: number): string {
    const key = this.seatKeys[seat];
    if (key === undefined) throw new Error(`no key for seat ${seat}`);
    return key;
  }

  async turn(): Promise<Turn> {
    const listed = await sealed(this.game, "moves", { token: this.token, seat: HUMAN, seat_key: this.key(HUMAN) });
    this.version = listed.version;
    this.lastView = listed.view;
    return { toAct: listed.to_act, mine: listed.moves };
  }

  async view(): Promise<View> {
    if (this.lastView === null) await this.turn();
    return this.lastView as View;
  }

  async events(now: boolean): Promise<GameEvent[]> {
    const dealChanged = this.lastView !== null && this.lastView.deal_number !== this.shownDeal;
    if (!now && !dealChanged && this.version - this.seen < CATCH_UP_VERSIONS) return [];
    const caught = await sealed(this.game, "view", {
      token: this.token,
      seat: HUMAN,
      seat_key: this.key(HUMAN),
      since: this.seen,
    });
    this.seen = caught.version;
    this.lastView = caught.view;
    this.shownDeal = caught.view.deal_number;
    return caught.events.flatMap((version) => version.events as GameEvent[]);
  }

  async botMove(seat: number): Promise<Move> {
    const body = { token: this.token, seat, seat_key: this.key(seat) };
    if (this.bots) {
      const answer = await sealed(this.game, "bot", { ...body, level: this.settings.level });
      return answer.move;
    }
    // without the bot endpoint the page picks at random among the bot seat's own legal moves
    const listed = await sealed(this.game, "moves", body);
    const choice = listed.moves[randomBelow(listed.moves.length)];
    if (choice === undefined) throw new Error(`seat ${seat} has no legal move`);
    return choice;
  }

  async apply(move: Move): Promise<void> {
    const { deck: _deck, ...withoutDeck } = move as Move & { deck?: unknown };
    try {
      const answer = await sealed(this.game, "apply", {
        token: this.token,
        seat: move.player,
        seat_key: this.key(move.player),
        move: withoutDeck,
      });
      this.token = answer.token;
    } catch (error) {
      // The match moved on from this token: only this page plays it, so the move that did it is one the
      // page sent and never heard back from (an answer lost, or a reload while it was on its way). The
      // match goes on from the latest token; the next turn shows where it stands.
      const latest = error instanceof ProblemError && error.problem.code === "match/stale" ? error.problem.latest_token : null;
      if (typeof latest !== "string") throw error;
      this.token = latest;
    }
  }

  async score(): Promise<Score> {
    return (await sealed(this.game, "score", { token: this.token })).score as Score;
  }

  saved(): SavedSession {
    const { token, seatKeys, ownEntropy, seen, shownDeal } = this;
    return { mode: "referee", token, seatKeys: [...seatKeys], ownEntropy, seen, shownDeal };
  }

  /** Seat 0 has been shown the events up to version `seen`, and the table of deal `deal` (a resumed
   * session asks only for what came after). */
  shown(seen: number, deal: number): void {
    this.seen = seen;
    this.shownDeal = deal;
  }
}

/** This browser's contribution to the deal's entropy (referee mode): 128 random bits in hex. */
function entropyString(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `seat 0: ${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}
