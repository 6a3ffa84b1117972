/**
 * Playing cards drawn as SVG by the page itself: no image, font or script from anywhere else. A card is
 * its two-character code from the contract (`7H`, `TC`: rank A 2-9 T J Q K, suit C D H S).
 */

const SVG = "http://www.w3.org/2000/svg";

export const SUIT_SYMBOL: Record<string, string> = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME: Record<string, string> = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_LABEL: Record<string, string> = { T: "10" };
const RANK_NAME: Record<string, string> = {
  A: "ace",
  T: "10",
  J: "jack",
  Q: "queen",
  K: "king",
};

/** Rank order within a suit as the rows show it: Ace low, then 2 to King. */
export const RANKS = "A23456789TJQK";

export function rankOf(card: string): string {
  return card.slice(0, 1);
}

export function suitOf(card: string): string {
  return card.slice(1, 2);
}

/** "7♥", for text. */
export function cardText(card: string): string {
  return `${RANK_LABEL[rankOf(card)] ?? rankOf(card)}${SUIT_SYMBOL[suitOf(card)] ?? "?"}`;
}

/** "7 of hearts", for screen readers. */
export function cardName(card: string): string {
  return `${RANK_NAME[rankOf(card)] ?? rankOf(card)} of ${SUIT_NAME[suitOf(card)] ?? "?"}`;
}

function element<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The face of a card, 60 by 84 units, scaled by CSS. Hearts and diamonds are red. */
export function cardFace(card: string): SVGSVGElement {
  const suit = suitOf(card);
  const rank = RANK_LABEL[rankOf(card)] ?? rankOf(card);
  const symbol = SUIT_SYMBOL[suit] ?? "?";
  const svg = element("svg", {
    viewBox: "0 0 60 84",
    class: `card-face ${suit === "H" || suit === "D" ? "red" : "black"}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(
    element("rect", { x: "1", y: "1", width: "58", height: "82", rx: "6", class: "card-paper" }),
    element("text", { x: "6", y: "18", class: "card-rank" }, rank),
    element("text", { x: "6", y: "32", class: "card-pip" }, symbol),
    element("text", { x: "30", y: "60", "text-anchor": "middle", class: "card-centre" }, symbol),
    element("text", { x: "54", y: "78", "text-anchor": "end", class: "card-rank" }, rank),
  );
  return svg;
}

/** The back of a card: for the stock and the others' hands. */
export function cardBack(): SVGSVGElement {
  const svg = element("svg", { viewBox: "0 0 60 84", class: "card-back", "aria-hidden": "true", focusable: "false" });
  svg.append(
    element("rect", { x: "1", y: "1", width: "58", height: "82", rx: "6", class: "card-back-paper" }),
    element("rect", { x: "7", y: "7", width: "46", height: "70", rx: "3", class: "card-back-inner" }),
    element("path", { d: "M30 20 L44 42 L30 64 L16 42 Z", class: "card-back-inner" }),
  );
  return svg;
}
