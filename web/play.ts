/**
 * The table at `GET /play`: one person plays one seat (seat 0) of any game against bots, through the
 * service's public REST API only, with the typed client of `clients/typescript`. This module is the table
 * itself (the setup form, the turn loop, the hand and the buttons, the scores and the final check of the
 * deals); `sessions.ts` holds the match and talks to the service, `words.ts` says what happened,
 * `layout.ts` draws the middle of the table and `cards.ts` the cards. `web/build.sh` compiles them into one
 * file, `api/static/play.js`.
 *
 * Referee mode when the service has keys (its `/openapi.json` lists the sealed operations): the match
 * travels as a sealed token and the person's seat reads and acts with its own seat key. The page, as the
 * table's host, also holds the bots' seat keys: it relays the bots' moves to `apply` (a card a bot passes
 * or discards face down among them) and receives those answers' events as each bot sees them (the cards
 * a bot draws face down included), and shows seat 0 none of those cards. Plain mode otherwise: the page
 * holds the state and shows seat 0 only what seat 0's view and its own events show.
 */
import { type GameId, ProblemError, UNEXPECTED_ANSWER } from "../clients/typescript/client";
import { backs, byId, cardNode, html, layout } from "./layout";
import {
  type GameInfo,
  HUMAN,
  type Level,
  type MatchSettings,
  type Move,
  type OptionInfo,
  type Options,
  type Outcome,
  PlainSession,
  plain,
  RefereeSession,
  resumed,
  rules,
  type SavedSession,
  type Score,
  type Session,
  type Turn,
  type View,
  onceMoreIfUnanswered,
} from "./sessions";
import { cardList, hasSides, matchResult, moveCard, moveLabel, phrase, seatName } from "./words";

/** Lines kept in the event log. */
const LOG_LINES = 300;

/** The `sessionStorage` key of the match this tab is playing: a reload of the page goes on with it (a
 * tab's storage is its own, so two tabs play two matches). */
const SAVED_TABLE = "sevens-rules-table";

/** What the page keeps of a match across a reload: the settings, the session, what the final check
 * needs, and what the page showed (the log, newest line first, and the last totals). */
interface SavedTable {
  game: string;
  players: number;
  options: Options;
  level: Level;
  session: SavedSession;
  dealt: [number, { dealer: number; hand: string[] }][];
  movedInDeal: number[];
  commitment: string | null;
  entropy: string[];
  lastScore: Score | null;
  log: [string, string][];
}

class Table {
  private session: Session | null = null;
  private settings: MatchSettings | null = null;
  private games: GameInfo[] = [];
  private sealedAvailable = false;
  private botsAvailable = false;
  /** The number of the match being played: a step of an older match stops when it sees a newer one. */
  private run = 0;
  private log: HTMLElement[] = [];
  /** Per deal: its dealer and seat 0's hand when it first saw it, before moving (for the final check). */
  private dealt = new Map<number, { dealer: number; hand: string[] }>();
  private movedInDeal = new Set<number>();
  private commitment: string | null = null;
  private entropy: string[] = [];
  private lastScore: Score | null = null;

  /** Whether the games and the contract were read (until then the error's button asks for them again). */
  ready = false;

  async init(): Promise<void> {
    byId<HTMLElement>("error").hidden = true;
    this.setStatus("busy", "Asking the service for its games…");
    try {
      const [games, contract] = await Promise.all([
        onceMoreIfUnanswered(() => rules.games()),
        onceMoreIfUnanswered(() => fetch("/openapi.json").then((r) => r.json())),
      ]);
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
      ? "Referee mode: the service seals the match. This page holds the bots' seat keys and gets what their moves' answers show them (cards they draw included), but shows you only your seat's cards."
      : "Plain mode: the service has no sealing keys, so this page holds the state.";
    byId<HTMLFormElement>("setup").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.start();
    });
    this.fillSetup();
    byId<HTMLButtonElement>("start").disabled = false;
    this.setStatus("idle", "Choose a game and start a match.");
    this.ready = true;
    const saved = this.savedTable();
    if (saved !== null) await this.resume(saved);
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
    // an empty field means "none" only where the option may be null; elsewhere the form refuses it
    // before anything is sent, as it refuses a number out of range
    if (option.type.includes("null")) input.placeholder = "none";
    else input.required = true;
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
      const session = this.sealedAvailable
        ? await RefereeSession.start(settings, this.botsAvailable)
        : await PlainSession.start(settings, this.botsAvailable);
      if (run !== this.run) return; // a newer match was started while this one was dealt
      this.session = session;
      byId<HTMLElement>("table-title").textContent = `${game.name}, ${settings.players} players (${this.session.mode} mode)`;
      await this.play(run);
    } catch (error) {
      if (run === this.run) this.showError(error);
    }
  }

  /** Goes on with the match this tab was playing before the page was loaded again, where it stood. */
  private async resume(saved: SavedTable): Promise<void> {
    const game = this.games.find((candidate) => candidate.id === saved.game);
    if (game === undefined) {
      this.forgetSaved();
      return;
    }
    const run = ++this.run;
    const settings: MatchSettings = { game, players: saved.players, options: saved.options, level: saved.level };
    this.showSettings(settings);
    this.settings = settings;
    this.session = resumed(settings, saved.session, this.botsAvailable);
    this.dealt = new Map(saved.dealt);
    this.movedInDeal = new Set(saved.movedInDeal);
    this.commitment = saved.commitment;
    this.entropy = saved.entropy;
    this.lastScore = saved.lastScore;
    this.log = [];
    byId<HTMLElement>("log").replaceChildren();
    for (const [type, text] of [...saved.log].reverse()) this.say(text, type);
    if (saved.lastScore !== null) this.showScore(saved.lastScore, settings);
    byId<HTMLElement>("table-title").textContent = `${game.name}, ${settings.players} players (${this.session.mode} mode)`;
    this.setStatus("busy", `Going on with your ${game.name} match…`);
    try {
      await this.play(run);
    } catch (error) {
      if (run !== this.run) return;
      // a match the service no longer knows (another service, a forgotten sealed match) is not kept:
      // the next load of the page starts clean
      this.forgetSaved();
      this.showError(error);
    }
  }

  /** The setup form as `settings` chose (a resumed match's). */
  private showSettings(settings: MatchSettings): void {
    byId<HTMLSelectElement>("game").value = settings.game.id;
    this.fillSetup();
    byId<HTMLSelectElement>("players").value = String(settings.players);
    byId<HTMLSelectElement>("level").value = settings.level;
    for (const [name, value] of Object.entries(settings.options)) {
      const control = document.getElementById(`option-${name}`) as HTMLInputElement | HTMLSelectElement | null;
      if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = value === true;
      else if (control !== null) control.value = value === null ? "" : String(value);
    }
  }

  /** Keeps the match in this tab's storage, as it stands between two steps. */
  private save(): void {
    const { session, settings } = this;
    if (session === null || settings === null) return;
    const saved: SavedTable = {
      game: settings.game.id,
      players: settings.players,
      options: settings.options,
      level: settings.level,
      session: session.saved(),
      dealt: [...this.dealt],
      movedInDeal: [...this.movedInDeal],
      commitment: this.commitment,
      entropy: this.entropy,
      lastScore: this.lastScore,
      log: this.log.map((line): [string, string] => [line.dataset.event ?? "", line.textContent ?? ""]),
    };
    try {
      sessionStorage.setItem(SAVED_TABLE, JSON.stringify(saved));
    } catch (error) {
      // storage off or full: the match goes on, only a reload would lose it
      console.warn("the match could not be kept for a reload:", error instanceof Error ? error.message : String(error));
    }
  }

  /** The match this tab kept, if any (anything unreadable is dropped). */
  private savedTable(): SavedTable | null {
    try {
      const text = sessionStorage.getItem(SAVED_TABLE);
      return text === null ? null : (JSON.parse(text) as SavedTable);
    } catch {
      this.forgetSaved();
      return null;
    }
  }

  private forgetSaved(): void {
    try {
      sessionStorage.removeItem(SAVED_TABLE);
    } catch {
      // storage off: nothing was kept
    }
  }

  private async play(run: number): Promise<void> {
    const session = this.session;
    const settings = this.settings;
    if (session === null || settings === null) return;
    // every await may end after a new match has started (this.run moved on): the old match then stops
    // before it draws, logs or records anything more
    const stale = () => run !== this.run;
    for (;;) {
      if (stale()) return;
      const turn = await session.turn();
      if (stale()) return;
      const over = turn.toAct.length === 0;
      const bot = turn.toAct.find((seat) => seat !== HUMAN);
      let dealEnded = false;
      const events = await session.events(over || bot === undefined);
      if (stale()) return;
      for (const event of events) {
        this.say(phrase(event, settings), event.type);
        if (event.type === "deal_ended") dealEnded = true;
      }
      if (dealEnded || over) {
        const score = await session.score();
        if (stale()) return;
        this.lastScore = score;
        this.showScore(score, settings);
      }
      this.save();
      if (bot !== undefined) {
        // bots first: in a simultaneous step the person then chooses last
        const move = await session.botMove(bot);
        if (stale()) return;
        await session.apply(move);
        continue;
      }
      const view = await session.view();
      if (stale()) return;
      this.record(view);
      if (over) {
        this.draw(view, turn, settings, []);
        await this.finish(run, view, settings);
        return;
      }
      const move = await this.ask(view, turn, settings);
      if (stale()) return;
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
    byId<HTMLElement>("table").replaceChildren(...layout(view, settings));
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

  private showScore(score: Score, settings: MatchSettings): void {
    const table = html("table", { class: "score" });
    const head = hasSides(settings.game.id, settings.players) ? "Side / seat" : "Seat";
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
    result.replaceChildren(html("h2", {}, matchResult(winners, settings)));
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

const table = new Table();
byId<HTMLButtonElement>("retry").addEventListener("click", () => void (table.ready ? table.start() : table.init()));
void table.init();
