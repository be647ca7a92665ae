"""Network card actions, and the cards' resolution in the network step.

"An agent may execute a network card action from any position on the floor; the command module cannot take
this action: Draw 1 network card ... Agent hand limit is 3 network cards; excess cards must be discarded
immediately. At the end of your turn, all unplayed network cards are discarded ... Network cards are
resolved during the network step of the turn." A card is completed when its condition holds in the network
step (after the IP has moved); completed cards count for missions ("Complete at least 1 network card").
"""

from __future__ import annotations

from controller.rules.action_types import NetworkCardAction
from controller.rules.cards.inventory import replace_innate
from controller.rules.cards.mods import mod_bonus
from controller.rules.corporation.pings import change_ceo_level, change_ip_level, nodes
from controller.rules.corporation.threat import change_threat
from controller.rules.errors import IllegalAction
from controller.rules.events import NetworkCardDone, NetworkCardDrawn, PingRemoved, card_ref
from controller.rules.legal import LegalAction
from controller.rules.players.network_moves import arrive
from controller.rules.players.power_gain import gain_power
from controller.rules.resolution import Resolution
from controller.rules.state import IP, Bot, GameState, NetworkCard

HAND_LIMIT = 3


def draw_network_card(resolution: Resolution, agent: Bot, discard: int | None) -> None:
    state = resolution.state
    if agent.kind != "agent":
        raise IllegalAction("the command module cannot take a network card action")
    if agent.shut_down or not agent.on_board:
        # "Bot Shut Down: ... Cannot act or advance floors until repaired." (as the listing says)
        raise IllegalAction(f"{agent.name} is {'shut down' if agent.shut_down else 'off the board'}: it cannot "
                            f"draw a network card")
    card = _top_card(resolution)
    if card is None:
        raise IllegalAction("the network deck is empty: no network card can be drawn")
    hand = state.network_hands.setdefault(agent.id, [])
    hand.append(card)
    resolution.emit(NetworkCardDrawn(agent=agent.id, card=card.id))
    if len(hand) > HAND_LIMIT + mod_bonus(agent, "hand_limit"):
        # "Agent hand limit is 3 network cards; excess cards must be discarded immediately."
        k = discard if discard is not None and 0 <= discard < len(hand) else 0
        _discard(resolution, agent, hand.pop(k), f"over the hand limit of {HAND_LIMIT}")


def resolve_network_cards(resolution: Resolution, agent: Bot, risky: list[str] | None = None) -> None:
    """Complete every card in the agent's hand whose condition holds now. `risky` names the cards Nano ignores
    with Risky Click: "When resolving a network card, Nano may ignore its effect, draw a new network card, and
    must resolve the new card effect if possible.\""""
    risky = list(risky or [])
    if risky and "risky_click" not in agent.abilities:
        raise IllegalAction(f"{agent.name} has no Risky Click: only Nano may ignore a network card's effect")
    hand = resolution.state.network_hands.get(agent.id, [])
    unknown = [c for c in risky if c not in {card.id for card in hand}]
    if unknown:
        raise IllegalAction(f"{agent.name} holds no network card {unknown[0]} to ignore")
    replaced = False  # "The first time Nano completes a network card on each turn"
    card: NetworkCard | None  # a Risky Click draws the next card in its place, or none
    for card in list(hand):
        if resolution.over:
            return
        ip = next((i for i in resolution.state.network.ips if i.agent == agent.id), None)
        if not _condition(resolution, card, ip):
            continue
        hand.remove(card)
        clicked = card.id in risky
        if clicked:
            _discard(resolution, agent, card, "Risky Click: its effect is ignored")
            card = _top_card(resolution)
            if card is None:
                continue
            resolution.emit(NetworkCardDrawn(agent=agent.id, card=card.id))
            if not _condition(resolution, card, ip):
                _discard(resolution, agent, card, "Risky Click: its effect cannot be resolved")
                continue
        _effect(resolution, card, agent, ip)
        key = f"network_card:{agent.id}"
        resolution.state.progress[key] = resolution.state.progress.get(key, 0) + 1
        resolution.state.network_discard.append(card)
        resolution.emit(NetworkCardDone(agent=agent.id, card=card.id, completed=True))
        # Transfer Learning: "his innate mod is discarded and a new mod is drawn and installed in its place";
        # Risky Click: "Nano does not discard his innate mod when using this ability."
        if "transfer_learning" in agent.abilities and not replaced and not clicked and not resolution.over:
            replaced = True
            replace_innate(resolution, agent)


def _top_card(resolution: Resolution) -> NetworkCard | None:
    """The top network card; an empty deck is made anew from its discards (rules-interpretations.md)."""
    state = resolution.state
    if not state.network_deck and state.network_discard:
        state.network_deck, state.network_discard = state.network_discard, []
    if not state.network_deck:
        return None
    return state.network_deck.pop(resolution.dice.draw("network deck", [c.id for c in state.network_deck]))


def discard_hand(resolution: Resolution, agent: Bot) -> None:
    """"At the end of your turn, all unplayed network cards are discarded and do not carry over.\""""
    hand = resolution.state.network_hands.pop(agent.id, [])
    for card in hand:
        _discard(resolution, agent, card, "not completed by the end of the turn")


def _discard(resolution: Resolution, agent: Bot, card: NetworkCard, reason: str) -> None:
    resolution.state.network_discard.append(card)
    resolution.emit(NetworkCardDone(agent=agent.id, card=card.id, completed=False, reason=reason))


def _condition(resolution: Resolution, card: NetworkCard, ip: IP | None) -> bool:
    if card.condition == "none":
        return True
    if ip is None or ip.banned or ip.node is None:
        return False
    node = nodes(resolution)[ip.node]
    return {"ip_on_layer_2": node.layer == 2, "ip_on_layer_3": node.layer == 3,
            "ip_on_hub": node.kind == "hub", "ip_level_3": ip.level >= 3}[card.condition]


def _effect(resolution: Resolution, card: NetworkCard, agent: Bot, ip: IP | None) -> None:
    state = resolution.state
    net = state.network
    if card.effect == "threat":
        change_threat(resolution, -card.amount, f"network card {card_ref('network', card.id)}")
    elif card.effect == "power":
        gain_power(resolution, agent, card.amount, f"network card {card_ref('network', card.id)}")
    elif card.effect == "ceo_level":
        change_ceo_level(resolution, -card.amount)
    elif ip is None or ip.banned or ip.node is None:
        return  # the IP effects need an IP on the mat
    elif card.effect == "ip_level":
        change_ip_level(resolution, ip, card.amount)
    elif card.effect == "remove_ping":
        by_id = nodes(resolution)
        reach, here = [ip.node], ip.node
        for _ in range(2):
            ahead = by_id[here].next
            if ahead is None:
                break
            here = ahead
            reach.append(here)
        ping = next((p for n in reach for p in net.pings if p.node == n), None)
        if ping is not None:
            net.pings.remove(ping)
            resolution.emit(PingRemoved(ping=ping.id, node=ping.node))
    elif card.effect == "ip_inward":
        node = nodes(resolution)[ip.node]
        if node.inward is not None:
            path = [ip.node, node.inward]
            ip.node = node.inward
            arrive(resolution, ip, nodes(resolution)[node.inward], path, stop_here=True)


def legal_network_card(state: GameState, agent: Bot, optimized: bool) -> list[LegalAction]:
    """Drawing a network card, while the deck or its discards hold one; optimized, one more action follows."""
    if not agent.on_board or agent.shut_down or not (state.network_deck or state.network_discard):
        return []
    hand = state.network_hands.get(agent.id, [])
    limit = HAND_LIMIT + mod_bonus(agent, "hand_limit")
    full = len(hand) >= limit
    parts = (f"a card to discard: the hand holds {len(hand)}, at most {limit}" if full else "",
             "then one more unoptimized action" if optimized else "")
    label = "; ".join(p for p in parts if p) or "draw a network card"
    return [LegalAction(NetworkCardAction(), label, bot=agent.id, choose=["discard"] if full else [],
                        options={"discard": list(range(len(hand) + 1))} if full else {})]
