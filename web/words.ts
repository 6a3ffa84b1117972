/** The table's words (`web/play.ts`): seats and sides by name, and events, finished deals and moves in
 * plain English. */
import { cardName, cardText, SUIT_NAME, SUIT_SYMBOL } from "./cards";
import { type GameEvent, HUMAN, type MatchSettings, type Move } from "./sessions";

export function seatName(seat: number): string {
  return seat === HUMAN ? "You" : `Bot ${seat}`;
}

/** The games played by sides of partners: seats opposite each other (seat % 2) share a side. */
export function hasSides(game: string, players: number): boolean {
  return (game === "four-handed-seven-up" || game === "sedmice") && players === 4;
}

export function sideName(game: string, players: number, side: number): string {
  if (!hasSides(game, players)) return seatName(side);
  return side === HUMAN % 2 ? "Your side (you and Bot 2)" : "Bots 1 and 3";
}

/** Names joined as a person lists them: "A", "A and B", "A, B and C". */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1] ?? ""}`;
}

/** Who won a finished match (the outcome's `winners`, seats sharing the best total), from seat 0's side
 * of the table: several winners are a tie for first place, and in a game of sides a tie between the
 * sides when both have winners. */
export function matchResult(winners: readonly number[], settings: MatchSettings): string {
  if (winners.length === 0) return "The match is over: nobody won.";
  const { id: game } = settings.game;
  if (hasSides(game, settings.players)) {
    const sides = [...new Set(winners.map((seat) => seat % 2))];
    if (sides.length > 1) return "The match is a tie: both sides share first place.";
    return sides[0] === HUMAN % 2 ? "Your side won the match." : `The match is over: ${sideName(game, settings.players, 1 - (HUMAN % 2))} won.`;
  }
  const others = winners.filter((seat) => seat !== HUMAN).map(seatName);
  if (!winners.includes(HUMAN)) {
    return others.length > 1 ? `The match is over: ${listed(others)} tied for first place.` : `The match is over: ${listed(others)} won.`;
  }
  return others.length ? `The match is a tie: you share first place with ${listed(others)}.` : "You won the match.";
}

export function cardList(cards: readonly string[]): string {
  return cards.length === 0 ? "nothing" : cards.map(cardText).join(" ");
}

export function phrase(event: GameEvent, settings: MatchSettings): string {
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
    case "match_ended":
      return matchResult(Array.isArray(e.winners) ? (e.winners as number[]) : [], settings);
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
    } else if (key === "winner" || key === "side" || key === "last_trick") {
      parts.push(`${label}: ${typeof value === "number" ? (key === "side" ? sideName(settings.game.id, settings.players, value) : seatName(value)) : "none"}`);
    } else if (typeof value === "string") {
      parts.push(`${label}: ${value.replace(/_/g, " ")}`);
    } else if (typeof value === "number" || typeof value === "boolean") {
      parts.push(`${label}: ${String(value)}`);
    } else if (Array.isArray(value)) {
      // a list of records (the Seven-Up family's points): their reasons, in order
      const reasons = value.map((item) => String((item as { reason?: unknown }).reason ?? "").replace(/_/g, " "));
      parts.push(`${label}: ${reasons.filter(Boolean).join(", ") || "none"}`);
    }
  }
  return parts.join("; ") + ".";
}

/** What a move's button says: its verb, and the card when it names one. */
export function moveLabel(move: Move): string {
  const card = moveCard(move);
  const words: Record<string, string> = {
    play: "Play",
    pass: "Pass",
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
export function moveCard(move: Move): string | null {
  const m = move as Record<string, unknown>;
  if (typeof m.card === "string") return m.card;
  if (Array.isArray(m.cards) && m.cards.length === 1 && typeof m.cards[0] === "string") return m.cards[0];
  return null;
}
