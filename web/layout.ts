/** Drawing the table (`web/play.ts`): the DOM helpers, a card face up or down, and the middle of the
 * table as each game lays it out. */
import { cardBack, cardFace, cardName, cardText, RANKS, rankOf, SUIT_NAME, SUIT_SYMBOL, suitOf } from "./cards";
import { type MatchSettings, type View } from "./sessions";
import { seatName, sideName } from "./words";

export function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing`);
  return found as T;
}

export function html<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** One card, drawn; a button when it is a legal move. */
export function cardNode(card: string, move?: { label: string; onPick: () => void }): HTMLElement {
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

export function backs(count: number, label: string): HTMLElement {
  const span = html("span", { class: "backs", role: "img", "aria-label": label });
  span.append(cardBack(), html("span", { class: "count" }, String(count)));
  return span;
}

/** The middle of the table, as each game lays it out. */
export function layout(view: View, settings: MatchSettings): HTMLElement[] {
  const parts: HTMLElement[] = [];
  const facts: string[] = [`Deal ${view.deal_number}`];
  switch (view.game) {
    case "sjuan":
    case "fan-tan":
    case "free-fan-tan":
    case "domino-fan-tan": {
      parts.push(suitRows((suit) => sortedByRank(view.table.filter((card) => suitOf(card) === suit))));
      if (view.game === "domino-fan-tan") parts.push(pile("Stock", view.stock_size));
      facts.push(`chips paid: ${view.chips.join(" / ")}`);
      break;
    }
    case "sevens": {
      parts.push(
        suitRows((suit) => {
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
      parts.push(trick("Trick", view.leader, view.trick, settings.players));
      const last = view.tricks[view.tricks.length - 1];
      if (last) parts.push(trick(`Last trick (won by ${seatName(last.winner)})`, last.leader, last.cards, settings.players));
      facts.push(`phase: ${view.phase.replace(/_/g, " ")}`);
      facts.push(`match points: ${view.totals.map((total, side) => `${sideName(settings.game.id, settings.players, side)} ${total}`).join(", ")}`);
      if (view.points.length) facts.push(`points this deal: ${view.points.map((point) => point.reason.replace("_", " ")).join(", ")}`);
      break;
    }
    case "sedmice": {
      const rounds = view.trick.map((round, index) =>
        trick(index === 0 ? "Trick" : `Trick, round ${index + 1}`, view.leader, round, settings.players),
      );
      if (rounds.length === 0) rounds.push(trick("Trick", view.leader, [], settings.players));
      parts.push(html("div", { class: "row" }, pile("Stock", view.stock_size)), ...rounds);
      if (view.winning !== null) facts.push(`taking the trick now: ${seatName(view.winning)}`);
      facts.push(`leader: ${seatName(view.leader)}`);
      facts.push(`points: ${view.points.map((points, side) => `${sideName(settings.game.id, settings.players, side)} ${points}`).join(", ")}`);
      facts.push(`tricks: ${view.tricks.join(" / ")}`);
      break;
    }
    case "my-ship-sails": {
      parts.push(html("div", { class: "row" }, pile("Not dealt", view.unused_size)));
      if (view.phase === "step") {
        const chosen = view.chosen.map((done, seat) => `${seatName(seat)}: ${done ? "chosen" : "choosing"}`).join(", ");
        parts.push(html("p", {}, `Pass one card to the left, or declare seven of a suit. ${chosen}.`));
      } else {
        // between deals and after the last one nobody chooses: nothing prompts a move
        parts.push(html("p", {}, view.phase === "match_over" ? "The match is over." : "The deal is over."));
      }
      if (view.phase === "step" && view.choice) {
        parts.push(html("p", {}, `Your choice: ${view.choice.type}${view.choice.card ? ` ${cardText(view.choice.card)}` : ""}.`));
      }
      facts.push(`exchanges: ${view.exchanges}`);
      break;
    }
  }
  parts.push(html("p", { class: "facts" }, facts.join(" · ")));
  return parts;
}

function suitRows(cardsOf: (suit: string) => string[]): HTMLElement {
  const rows = html("div", { class: "rows" });
  for (const suit of "CDHS") {
    const row = html("div", { class: "row suit-row", "data-suit": suit });
    row.append(html("span", { class: `suit-label ${suit === "H" || suit === "D" ? "red" : ""}`, role: "img", "aria-label": SUIT_NAME[suit] ?? suit }, SUIT_SYMBOL[suit] ?? suit));
    const cards = cardsOf(suit);
    if (cards.length === 0) row.append(html("span", { class: "empty" }, "—"));
    for (const card of cards) row.append(cardNode(card));
    rows.append(row);
  }
  return rows;
}

function trick(title: string, leader: number | null, cards: readonly string[], players: number): HTMLElement {
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
