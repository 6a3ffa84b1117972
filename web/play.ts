/**
 * The table at `GET /play`: one person plays one seat (seat 0) of any game against bots, through the
 * service's public REST API only, with the typed client of `clients/typescript`. Compiled to one file,
 * `api/static/play.js`, by `web/build.sh`.
 *
 * Referee mode when the service has keys (its `/openapi.json` lists the sealed operations): the match
 * travels as a sealed token, the person's seat reads and acts with its own seat key, and the page never
 * holds another seat's cards. Plain mode otherwise: the page holds the state and shows seat 0 only what
 * seat 0's view and its own events show.
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
import { cardBack, cardFace, cardName, cardText, RANKS, rankOf, SUIT_NAME, SUIT_SYMBOL, suitOf } from "./cards";

type GameInfo = GamesAnswer["games"][number];
type OptionInfo = GameInfo["options"][number];
type State = AnswerOf<PlainPath<GameId, "new">>["state"];
type View = AnswerOf<PlainPath<GameId, "view">>;
type Move = AnswerOf<PlainPath<GameId, "moves">>["moves"][number];
type GameEvent = AnswerOf<PlainPath<GameId, "apply">>["events"][number];
type Score = AnswerOf<PlainPath<GameId, "score">>;
type Outcome = Score["outcome"];
type Options = Record<string, boolean | number | null>;
type Level = "random" | "rules" | "search";

/** The seat the person plays. */
const HUMAN = 0;
/** Lines kept in the event log. */
const LOG_LINES = 300;

const rules = new RulesClient("");

function plain<O extends PlainOperation>(game: GameId, operation: O, body: object): Promise<AnswerOf<PlainPath<GameId, O>>> {
  const path = `/v1/games/${game}/${operation}` as PlainPath<GameId, O>;
  // a plain operation is a function of its request: asking again answers the same
  return onceMoreIfUnanswered(() => rules.post(path, body as RequestOf<PlainPath<GameId, O>>));
}

/** The sealed operations that must not be sent twice: a join is never answered twice (README, "One
 * successor per version"). */
const SENT_ONCE: ReadonlySet<SealedOperation> = new Set<SealedOperation>(["join"]);

function sealed<O extends SealedOperation>(game: GameId, operation: O, body: object): Promise<AnswerOf<SealedPath<GameId, O>>> {
  const path = `/v1/games/${game}/sealed/${operation}` as SealedPath<GameId, O>;
  const send = (): Promise<AnswerOf<SealedPath<GameId, O>>> => rules.post(path, body as RequestOf<SealedPath<GameId, O>>);
  // moves, view, score and bot only read the token; an apply or fill sent again from the same token is
  // answered as the first was when the service keeps a match store (README, "One successor per version"),
  // and otherwise seals another successor of the same state; a second new table is never used
  return SENT_ONCE.has(operation) ? send() : onceMoreIfUnanswered(send);
}

/** Whether `error` means that no answer arrived whole (the connection failed, or what came was not an
 * answer), as opposed to a refusal the service explained. */
function unanswered(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof ProblemError && error.problem.code === UNEXPECTED_ANSWER);
}

/** `send()`, sent a second time when the first brought no answer: networks drop connections, and a
 * person at the table should not lose a match to one. A second failure is shown as it is. */
async function onceMoreIfUnanswered<T>(send: () => Promise<T>): Promise<T> {
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
interface Turn {
  toAct: number[];
  mine: Move[];
}

interface Session {
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
}

interface MatchSettings {
  game: GameInfo;
  players: number;
  options: Options;
  level: Level;
}

/** Events that show a card to one seat only: another seat's copy says only that it happened. */
const PRIVATE_CARD_EVENTS = new Set(["drew", "received"]);

class PlainSession implements Session {
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
    // the page holds every hand in plain mode; it shows seat 0 no card an event shows only to another seat
    const events = this.pending.map((event) =>
      PRIVATE_CARD_EVENTS.has(event.type) && event.player !== HUMAN ? { ...event, card: null } : event,
    );
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
}

/** A sealed token keeps the events of its last 16 versions: the page catches up well before that. */
const CATCH_UP_VERSIONS = 12;

class RefereeSession implements Session {
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
    const answer = await sealed(this.game, "apply", {
      token: this.token,
      seat: move.player,
      seat_key: this.key(move.player),
      move: withoutDeck,
    });
    this.token = answer.token;
  }

  async score(): Promise<Score> {
    return (await sealed(this.game, "score", { token: this.token })).score as Score;
  }
}

/** This browser's contribution to the deal's entropy (referee mode): 128 random bits in hex. */
function entropyString(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `seat 0: ${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

// ---- the page --------------------------------------------------------------------------------------------

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing`);
  return found as T;
}

function html<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function seatName(seat: number): string {
  return seat === HUMAN ? "You" : `Bot ${seat}`;
}

/** The games played by sides of partners: seats opposite each other (seat % 2) share a side. */
function hasSides(game: string, players: number): boolean {
  return (game === "four-handed-seven-up" || game === "sedmice") && players === 4;
}

function sideName(game: string, players: number, side: number): string {
  if (!hasSides(game, players)) return seatName(side);
  return side === HUMAN % 2 ? "Your side (you and Bot 2)" : "Bots 1 and 3";
}

function cardList(cards: readonly string[]): string {
  return cards.length === 0 ? "nothing" : cards.map(cardText).join(" ");
}

function phrase(event: GameEvent, settings: MatchSettings): string {
  const e = event as Record<string, unknown>;
  const who = typeof e.player === "number" ? seatName(e.player) : "";
  const card = typeof e.card === "string" ? cardText(e.card) : null;
  const cards = Array.isArray(e.cards) ? cardList(e.cards as string[]) : null;
  switch (event.type) {
    case "deal_started":
      return who ? `A new deal: ${who === "You" ? "you deal" : `${who} deals`}.` : "A new deal.";
    case "chip_paid":
      return `${who} paid ${String(e.chips)} chip${e.chips === 1 ? "" : "s"} (${e.reason === "short_hand" ? "short hand" : "pass"}).`;
    case "played":
      return `${who} played ${card ?? "a card"}.`;
    case "passed":
      return `${who} passed.`;
    case "drew":
      return `${who} drew ${card ?? "a card"}.`;
    case "bust":
      return `${who} went bust${cards ? `, laying out ${cards}` : ""}.`;
    case "went_out":
      return `${who} went out (place ${String(e.place)}).`;
    case "trump_turned":
      return `${card ?? "A card"} was turned: ${SUIT_NAME[String(e.suit)] ?? "?"} ${SUIT_SYMBOL[String(e.suit)] ?? ""} are trumps.`;
    case "set_aside":
      return `${card ?? "A card"} of the refused suit was set aside.`;
    case "stood":
      return `${who} stood.`;
    case "begged":
      return `${who} begged.`;
    case "gave":
      return `${who} gave a point.`;
    case "ran":
      return `${who} ran the cards.`;
    case "thrown_in":
      return "The pack ran short: the deal is thrown in.";
    case "discarded":
      return `${who} discarded ${card ?? cards ?? `${String(e.count)} card${e.count === 1 ? "" : "s"}`}.`;
    case "trick_won":
    case "trick_taken":
      return `${who} took the trick${cards ? ` (${cards})` : ""}.`;
    case "extended":
      return `${who} extended the trick with ${card ?? "a card"}.`;
    case "point":
      return `Point for ${typeof e.side === "number" ? sideName(settings.game.id, settings.players, e.side) : who}: ${String(e.reason).replace("_", " ")}${card ? ` (${card})` : ""}.`;
    case "chosen":
      return `${who} chose.`;
    case "exchanged":
      return `Every seat passed a card to the left (exchange ${String(e.exchange)}).`;
    case "received":
      return `${who} received ${card ?? "a card"}${typeof e.from_player === "number" ? ` from ${seatName(e.from_player)}` : ""}.`;
    case "declared":
      return `${who} declared: my ship sails${cards ? ` (${cards})` : ""}${e.auto ? ", automatically" : ""}.`;
    case "deal_ended":
      return `The deal is over. ${dealSummary(e.deal, settings)}`;
    case "match_ended": {
      const winners = Array.isArray(e.winners) ? (e.winners as number[]) : [];
      return `The match is over: ${winners.length ? winners.map(seatName).join(" and ") : "nobody"} won.`;
    }
    default:
      return `${who} ${String(e.type).replace(/_/g, " ")}.`.trim();
  }
}

/** A finished deal's record in words: its per-seat lists and its plain fields. */
function dealSummary(deal: unknown, settings: MatchSettings): string {
  if (typeof deal !== "object" || deal === null) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(deal as Record<string, unknown>)) {
    if (key === "number" || key === "dealer") continue;
    const label = key.replace(/_/g, " ");
    if (Array.isArray(value) && value.every((item) => typeof item === "number")) {
      if (key === "winners") parts.push(`winners: ${value.length ? value.map(seatName).join(", ") : "none"}`);
      else parts.push(`${label}: ${value.join(" / ")}`);
    } else if (key === "winner" || key === "side") {
      parts.push(`${label}: ${typeof value === "number" ? (key === "side" ? sideName(settings.game.id, settings.players, value) : seatName(value)) : "none"}`);
    } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      parts.push(`${label}: ${String(value)}`);
    } else if (Array.isArray(value)) {
      parts.push(`${label}: ${value.length}`);
    }
  }
  return parts.join("; ") + ".";
}

/** One card, drawn; a button when it is a legal move. */
function cardNode(card: string, move?: { label: string; onPick: () => void }): HTMLElement {
  if (move === undefined) {
    const span = html("span", { class: "card", role: "img", "aria-label": cardName(card) });
    span.append(cardFace(card));
    return span;
  }
  const button = html("button", { type: "button", class: "card move", "aria-label": move.label, "data-card": card });
  button.append(cardFace(card));
  button.addEventListener("click", move.onPick);
  return button;
}

function backs(count: number, label: string): HTMLElement {
  const span = html("span", { class: "backs", role: "img", "aria-label": label });
  span.append(cardBack(), html("span", { class: "count" }, String(count)));
  return span;
}

function moveLabel(move: Move): string {
  const m = move as Record<string, unknown>;
  const card = typeof m.card === "string" ? m.card : Array.isArray(m.cards) && m.cards.length === 1 ? String(m.cards[0]) : null;
  const words: Record<string, string> = {
    play: "Play",
    pass: card ? "Pass" : "Pass",
    draw: "Draw from the stock",
    next_deal: "Deal the next hand",
    stand: "Stand",
    beg: "Beg",
    give: "Give a point",
    run: "Run the cards",
    discard: "Discard",
    declare: "Declare: my ship sails",
    extend: "Extend the trick with",
    end_trick: "End the trick",
  };
  const verb = words[move.type] ?? move.type.replace(/_/g, " ");
  return card ? `${verb} ${cardName(card)}` : verb;
}

/** The card a move is about, when it is one card of the hand. */
function moveCard(move: Move): string | null {
  const m = move as Record<string, unknown>;
  if (typeof m.card === "string") return m.card;
  if (Array.isArray(m.cards) && m.cards.length === 1 && typeof m.cards[0] === "string") return m.cards[0];
  return null;
}

class Table {
  private session: Session | null = null;
  private settings: MatchSettings | null = null;
  private games: GameInfo[] = [];
  private sealedAvailable = false;
  private botsAvailable = false;
  /** Whether sealed `new` opens a table that seats `join` (and the host `fill`s). */
  private run = 0;
  private log: HTMLElement[] = [];
  /** Per deal: its dealer and seat 0's hand when it first saw it, before moving (for the final check). */
  private dealt = new Map<number, { dealer: number; hand: string[] }>();
  private movedInDeal = new Set<number>();
  private commitment: string | null = null;
  private entropy: string[] = [];
  private lastScore: Score | null = null;

  async init(): Promise<void> {
    try {
      const [games, contract] = await Promise.all([rules.games(), fetch("/openapi.json").then((r) => r.json())]);
      this.games = games.games;
      const paths = Object.keys((contract as { paths: Record<string, unknown> }).paths);
      this.sealedAvailable = paths.some((path) => path.endsWith("/sealed/new"));
      this.botsAvailable = paths.some((path) => /^\/v1\/games\/[a-z-]+\/bot$/.test(path));
    } catch (error) {
      this.showError(error);
      return;
    }
    const gameSelect = byId<HTMLSelectElement>("game");
    for (const game of this.games) gameSelect.append(html("option", { value: game.id }, game.name));
    const wanted = new URLSearchParams(location.search).get("game");
    if (wanted && this.games.some((game) => game.id === wanted)) gameSelect.value = wanted;
    gameSelect.addEventListener("change", () => this.fillSetup());
    const level = byId<HTMLSelectElement>("level");
    if (!this.botsAvailable) {
      level.replaceChildren(html("option", { value: "random" }, "random (chosen by this page)"));
    }
    byId<HTMLElement>("mode").textContent = this.sealedAvailable
      ? "Referee mode: the service seals the match; this page holds only your seat's cards."
      : "Plain mode: the service has no sealing keys, so this page holds the state.";
    byId<HTMLFormElement>("setup").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.start();
    });
    this.fillSetup();
    byId<HTMLButtonElement>("start").disabled = false;
  }

  private selectedGame(): GameInfo {
    const id = byId<HTMLSelectElement>("game").value;
    const game = this.games.find((candidate) => candidate.id === id) ?? this.games[0];
    if (game === undefined) throw new Error("the service lists no game");
    return game;
  }

  /** The table sizes and options of the chosen game, with their defaults. */
  private fillSetup(): void {
    const game = this.selectedGame();
    const players = byId<HTMLSelectElement>("players");
    players.replaceChildren(...game.player_counts.map((count) => html("option", { value: String(count) }, String(count))));
    const options = byId<HTMLElement>("options");
    options.replaceChildren(...game.options.map((option) => this.optionControl(option)));
    const link = byId<HTMLAnchorElement>("rules-link");
    link.href = game.rules;
    link.textContent = `Rules of ${game.name}`;
  }

  private optionControl(option: OptionInfo): HTMLElement {
    const id = `option-${option.name}`;
    const label = option.name.replace(/_/g, " ");
    if (option.type === "boolean") {
      const input = html("input", { type: "checkbox", id, "data-option": option.name });
      input.checked = option.default === true;
      return html("label", { class: "option", title: option.description }, input, ` ${label}`);
    }
    if (option.choices) {
      const select = html("select", { id, "data-option": option.name });
      for (const choice of option.choices) select.append(html("option", { value: String(choice) }, String(choice)));
      select.value = String(option.default);
      return html("label", { class: "option", title: option.description }, `${label} `, select);
    }
    const input = html("input", { type: "number", id, "data-option": option.name, inputmode: "numeric" });
    if (option.minimum !== null) input.min = String(option.minimum);
    if (option.maximum !== null) input.max = String(option.maximum);
    input.value = option.default === null ? "" : String(option.default);
    if (option.type.includes("null")) input.placeholder = "none";
    return html("label", { class: "option", title: option.description }, `${label} `, input);
  }

  private readOptions(game: GameInfo): Options {
    const options: Options = {};
    for (const option of game.options) {
      const control = document.getElementById(`option-${option.name}`) as HTMLInputElement | HTMLSelectElement | null;
      if (control === null) continue;
      if (option.type === "boolean") options[option.name] = (control as HTMLInputElement).checked;
      else if (control.value.trim() === "") options[option.name] = null;
      else options[option.name] = Number(control.value);
    }
    return options;
  }

  async start(): Promise<void> {
    const run = ++this.run;
    const game = this.selectedGame();
    const settings: MatchSettings = {
      game,
      players: Number(byId<HTMLSelectElement>("players").value),
      options: this.readOptions(game),
      level: byId<HTMLSelectElement>("level").value as Level,
    };
    this.settings = settings;
    this.session = null;
    this.dealt.clear();
    this.movedInDeal.clear();
    this.commitment = null;
    this.entropy = [];
    this.lastScore = null;
    this.log = [];
    byId<HTMLElement>("log").replaceChildren();
    byId<HTMLElement>("error").hidden = true;
    byId<HTMLElement>("result").replaceChildren();
    byId<HTMLElement>("scores").replaceChildren();
    this.setStatus("busy", `Dealing ${game.name}…`);
    try {
      this.session = this.sealedAvailable
        ? await RefereeSession.start(settings, this.botsAvailable)
        : await PlainSession.start(settings, this.botsAvailable);
      byId<HTMLElement>("table-title").textContent = `${game.name}, ${settings.players} players (${this.session.mode} mode)`;
      await this.play(run);
    } catch (error) {
      if (run === this.run) this.showError(error);
    }
  }

  private async play(run: number): Promise<void> {
    const session = this.session;
    const settings = this.settings;
    if (session === null || settings === null) return;
    for (;;) {
      if (run !== this.run) return; // a new match was started
      const turn = await session.turn();
      const over = turn.toAct.length === 0;
      const bot = turn.toAct.find((seat) => seat !== HUMAN);
      let dealEnded = false;
      for (const event of await session.events(over || bot === undefined)) {
        this.say(phrase(event, settings), event.type);
        if (event.type === "deal_ended") dealEnded = true;
      }
      if (dealEnded || over) {
        this.lastScore = await session.score();
        this.showScore(this.lastScore, settings);
      }
      if (bot !== undefined) {
        // bots first: in a simultaneous step the person then chooses last
        await session.apply(await session.botMove(bot));
        continue;
      }
      const view = await session.view();
      this.record(view);
      if (over) {
        this.draw(view, turn, settings, []);
        await this.finish(run, view, settings);
        return;
      }
      const move = await this.ask(view, turn, settings);
      if (run !== this.run) return;
      this.movedInDeal.add(view.deal_number);
      this.setStatus("busy", "Playing…");
      await session.apply(move);
    }
  }

  /** Seat 0's hand at the start of each deal, for the check at the end. */
  private record(view: View): void {
    this.commitment ??= view.commitment;
    this.entropy = view.entropy;
    if (view.hand.length > 0 && !this.dealt.has(view.deal_number) && !this.movedInDeal.has(view.deal_number)) {
      this.dealt.set(view.deal_number, { dealer: view.dealer, hand: [...view.hand] });
    }
  }

  /** Draws the table and waits for the person to choose one of `turn.mine`. */
  private ask(view: View, turn: Turn, settings: MatchSettings): Promise<Move> {
    return new Promise((resolve) => {
      this.draw(view, turn, settings, turn.mine, resolve);
      this.setStatus("your-turn", "Your turn: choose a highlighted card or a button.");
      const first = document.querySelector<HTMLElement>("#hand .move, #actions .move");
      first?.focus();
    });
  }

  private setStatus(state: string, text: string): void {
    const status = byId<HTMLElement>("status");
    status.dataset.state = state;
    status.textContent = text;
  }

  private say(text: string, type: string): void {
    const line = html("li", { "data-event": type }, text);
    const log = byId<HTMLElement>("log");
    log.prepend(line);
    this.log.unshift(line);
    if (this.log.length > LOG_LINES) this.log.pop()?.remove();
  }

  private draw(view: View, turn: Turn, settings: MatchSettings, moves: Move[], choose?: (move: Move) => void): void {
    const pick = (move: Move) => () => {
      if (choose === undefined) return;
      for (const button of document.querySelectorAll<HTMLButtonElement>("button.move")) button.disabled = true;
      choose(move);
    };
    // the seats: who deals, who is to act, hand sizes
    const seats = byId<HTMLElement>("seats");
    seats.replaceChildren(
      ...view.hand_sizes.map((size, seat) => {
        const marks = [
          seat === view.dealer ? "dealer" : "",
          turn.toAct.includes(seat) ? "to act" : "",
          hasSides(settings.game.id, settings.players) ? `side ${seat % 2 === HUMAN % 2 ? "yours" : "theirs"}` : "",
        ].filter(Boolean);
        return html(
          "li",
          { class: `seat${turn.toAct.includes(seat) ? " acting" : ""}`, "data-seat": String(seat) },
          html("strong", {}, seatName(seat)),
          backs(size, `${size} card${size === 1 ? "" : "s"}`),
          html("span", { class: "marks" }, marks.join(", ")),
        );
      }),
    );
    byId<HTMLElement>("table").replaceChildren(...this.layout(view, settings));
    // the hand: every card, the legal ones as buttons
    const byCard = new Map<string, Move>();
    const others: Move[] = [];
    for (const move of moves) {
      const card = moveCard(move);
      if (card !== null && (view.hand as readonly string[]).includes(card) && !byCard.has(card)) byCard.set(card, move);
      else others.push(move);
    }
    const hand = byId<HTMLElement>("hand");
    const hidden = "hand_hidden" in view && view.hand_hidden;
    hand.replaceChildren(
      ...(hidden
        ? [html("p", {}, "Your hand stays face down until trump is settled.")]
        : view.hand.map((card) => {
            const move = byCard.get(card);
            return cardNode(card, move && { label: moveLabel(move), onPick: pick(move) });
          })),
    );
    const actions = byId<HTMLElement>("actions");
    actions.replaceChildren(
      ...others.map((move) => {
        const button = html("button", { type: "button", class: "move action", "data-type": move.type }, moveLabel(move));
        button.addEventListener("click", pick(move));
        return button;
      }),
    );
  }

  /** The middle of the table, as each game lays it out. */
  private layout(view: View, settings: MatchSettings): HTMLElement[] {
    const parts: HTMLElement[] = [];
    const facts: string[] = [`Deal ${view.deal_number}`];
    switch (view.game) {
      case "sjuan":
      case "fan-tan":
      case "free-fan-tan":
      case "domino-fan-tan": {
        parts.push(this.suitRows((suit) => sortedByRank(view.table.filter((card) => suitOf(card) === suit))));
        if (view.game === "domino-fan-tan") parts.push(pile("Stock", view.stock_size));
        facts.push(`chips paid: ${view.chips.join(" / ")}`);
        break;
      }
      case "sevens": {
        parts.push(
          this.suitRows((suit) => {
            const row = view.table.find((candidate) => candidate.suit === suit);
            return row ? sortedByRank([...row.run, ...row.laid]) : [];
          }),
        );
        facts.push(`passes used: ${view.passes.join(" / ")}`);
        if (view.out.length) facts.push(`out: ${view.out.map(seatName).join(", ")}`);
        if (view.bust.length) facts.push(`bust: ${view.bust.map(seatName).join(", ")}`);
        break;
      }
      case "seven-up":
      case "four-handed-seven-up":
      case "california-jack": {
        const trump = view.trump ? `${SUIT_SYMBOL[view.trump]} ${SUIT_NAME[view.trump]}` : "not settled";
        const row = html("div", { class: "row" });
        if (view.turned) row.append(labelled("Turned", cardNode(view.turned)));
        if (view.stock_top) row.append(labelled("Stock (top face up)", cardNode(view.stock_top)));
        row.append(pile("Stock", view.stock_size));
        if (view.set_aside.length) row.append(labelled("Set aside", ...view.set_aside.map((card) => cardNode(card))));
        parts.push(row, html("p", { class: "trump" }, `Trump: ${trump}`));
        parts.push(this.trick("Trick", view.leader, view.trick, settings.players));
        const last = view.tricks[view.tricks.length - 1];
        if (last) parts.push(this.trick(`Last trick (won by ${seatName(last.winner)})`, last.leader, last.cards, settings.players));
        facts.push(`phase: ${view.phase.replace(/_/g, " ")}`);
        facts.push(`match points: ${view.totals.map((total, side) => `${sideName(settings.game.id, settings.players, side)} ${total}`).join(", ")}`);
        if (view.points.length) facts.push(`points this deal: ${view.points.map((point) => point.reason.replace("_", " ")).join(", ")}`);
        break;
      }
      case "sedmice": {
        const rounds = view.trick.map((round, index) =>
          this.trick(index === 0 ? "Trick" : `Trick, round ${index + 1}`, view.leader, round, settings.players),
        );
        if (rounds.length === 0) rounds.push(this.trick("Trick", view.leader, [], settings.players));
        parts.push(html("div", { class: "row" }, pile("Stock", view.stock_size)), ...rounds);
        if (view.winning !== null) facts.push(`taking the trick now: ${seatName(view.winning)}`);
        facts.push(`leader: ${seatName(view.leader)}`);
        facts.push(`points: ${view.points.map((points, side) => `${sideName(settings.game.id, settings.players, side)} ${points}`).join(", ")}`);
        facts.push(`tricks: ${view.tricks.join(" / ")}`);
        break;
      }
      case "my-ship-sails": {
        parts.push(html("div", { class: "row" }, pile("Not dealt", view.unused_size)));
        const chosen = view.chosen.map((done, seat) => `${seatName(seat)}: ${done ? "chosen" : "choosing"}`).join(", ");
        parts.push(html("p", {}, `Pass one card to the left, or declare seven of a suit. ${chosen}.`));
        if (view.choice) {
          parts.push(html("p", {}, `Your choice: ${view.choice.type}${view.choice.card ? ` ${cardText(view.choice.card)}` : ""}.`));
        }
        facts.push(`exchanges: ${view.exchanges}`);
        break;
      }
    }
    parts.push(html("p", { class: "facts" }, facts.join(" · ")));
    return parts;
  }

  private suitRows(cardsOf: (suit: string) => string[]): HTMLElement {
    const rows = html("div", { class: "rows" });
    for (const suit of "CDHS") {
      const row = html("div", { class: "row suit-row", "data-suit": suit });
      row.append(html("span", { class: `suit-label ${suit === "H" || suit === "D" ? "red" : ""}`, "aria-label": SUIT_NAME[suit] ?? suit }, SUIT_SYMBOL[suit] ?? suit));
      const cards = cardsOf(suit);
      if (cards.length === 0) row.append(html("span", { class: "empty" }, "—"));
      for (const card of cards) row.append(cardNode(card));
      rows.append(row);
    }
    return rows;
  }

  private trick(title: string, leader: number | null, cards: readonly string[], players: number): HTMLElement {
    const box = html("div", { class: "trick" }, html("h3", {}, title));
    const row = html("div", { class: "row" });
    cards.forEach((card, index) => {
      const seat = leader === null ? null : (leader + index) % players;
      row.append(labelled(seat === null ? "" : seatName(seat), cardNode(card)));
    });
    if (cards.length === 0) row.append(html("span", { class: "empty" }, "no card yet"));
    box.append(row);
    return box;
  }

  private showScore(score: Score, settings: MatchSettings): void {
    const table = html("table", { class: "score" });
    const head = hasSides(settings.game.id, settings.players) || settings.game.id.includes("seven-up") ? "Side / seat" : "Seat";
    table.append(
      html("caption", {}, score.outcome.lowest_total_wins ? "Match totals (lowest wins)" : "Match totals (highest wins)"),
      html("tr", {}, html("th", {}, head), html("th", {}, "Total"), html("th", {}, "Place")),
      ...score.outcome.seats.map((seat) =>
        html("tr", {}, html("td", {}, seatName(seat.seat)), html("td", {}, String(seat.total)), html("td", {}, String(seat.place))),
      ),
    );
    byId<HTMLElement>("scores").replaceChildren(table);
  }

  private async finish(run: number, view: View, settings: MatchSettings): Promise<void> {
    const outcome: Outcome | undefined = this.lastScore?.outcome;
    const winners = outcome?.winners ?? [];
    const result = byId<HTMLElement>("result");
    const won = winners.includes(HUMAN) || (hasSides(settings.game.id, settings.players) && winners.some((seat) => seat % 2 === HUMAN % 2));
    result.replaceChildren(
      html("h2", {}, won ? "You won the match." : `The match is over: ${winners.map(seatName).join(" and ") || "nobody"} won.`),
    );
    this.setStatus("checking", "Checking the deals…");
    const verdict = await this.check(view, settings);
    if (run !== this.run) return;
    result.append(html("p", { id: "verdict", "data-verified": String(verdict.ok) }, verdict.text));
    this.setStatus("over", "The match is over. Start a new one above.");
    byId<HTMLButtonElement>("start").focus();
  }

  /** Recomputes every deal seat 0 saw from the revealed seed and compares. */
  private async check(view: View, settings: MatchSettings): Promise<{ ok: boolean; text: string }> {
    const seed = view.seed;
    if (seed === null || this.commitment === null) {
      return { ok: false, text: "The service did not reveal the seed at the end of the match: the deals cannot be checked." };
    }
    const problems: string[] = [];
    const own = this.session?.ownEntropy ?? null;
    if (own !== null && !this.entropy.includes(own)) {
      problems.push("the entropy this browser contributed is not in the list the deals were made from");
    }
    for (const [deal, { dealer, hand }] of this.dealt) {
      const verified = await plain(settings.game.id as GameId, "verify", {
        seed,
        commitment: this.commitment,
        entropy: this.entropy,
        players: settings.players,
        options: settings.options,
        deal_number: deal,
        dealer,
      });
      if (!verified.commitment_matches) problems.push(`deal ${deal}: the revealed seed is not the one committed to`);
      const dealtHand = verified.hands[HUMAN] ?? [];
      const missing = (dealtHand as readonly string[]).filter((card) => !hand.includes(card));
      if (missing.length) problems.push(`deal ${deal}: you were not dealt ${cardList(missing)}`);
    }
    if (problems.length) return { ok: false, text: `The deal check FAILED: ${problems.join("; ")}.` };
    return {
      ok: true,
      text:
        `Deals checked: the revealed seed matches the commitment ${this.commitment.slice(0, 12)}… published before the ` +
        `first deal, and recomputing ${this.dealt.size} deal${this.dealt.size === 1 ? "" : "s"} from it gives exactly the cards you were dealt` +
        (own !== null ? ", with this browser's own entropy mixed in." : "."),
    };
  }

  private showError(error: unknown): void {
    const box = byId<HTMLElement>("error");
    let text: string;
    if (error instanceof ProblemError && error.problem.code === UNEXPECTED_ANSWER) {
      text = `The service's answer could not be read: ${error.problem.detail}`;
    } else if (error instanceof ProblemError) {
      const where = error.problem.errors?.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
      text = `The service refused a request (${error.status} ${error.problem.code}): ${error.problem.detail}${where ? ` (${where})` : ""}`;
    } else if (error instanceof TypeError) {
      text = `The service could not be reached: ${error.message}`;
    } else {
      text = `Something went wrong: ${error instanceof Error ? error.message : String(error)}`;
    }
    byId<HTMLElement>("error-text").textContent = text;
    box.hidden = false;
    this.setStatus("error", "Stopped: see the message below.");
    byId<HTMLButtonElement>("retry").focus();
  }
}

function sortedByRank(cards: string[]): string[] {
  return [...cards].sort((a, b) => RANKS.indexOf(rankOf(a)) - RANKS.indexOf(rankOf(b)));
}

function labelled(title: string, ...content: HTMLElement[]): HTMLElement {
  const shown = content.length > 1 ? [html("div", { class: "row" }, ...content)] : content;
  return html("figure", { class: "labelled" }, ...shown, html("figcaption", {}, title));
}

function pile(title: string, count: number): HTMLElement {
  return labelled(title, backs(count, `${title}: ${count} card${count === 1 ? "" : "s"}`));
}

const table = new Table();
byId<HTMLButtonElement>("retry").addEventListener("click", () => void table.start());
void table.init();
