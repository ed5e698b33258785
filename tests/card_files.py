"""Card files a designer might write: the shipped set with its numbers drawn again, as a Hypothesis strategy.

The solver's abstractions, lemmas and round facts are checked against the engine on a handful of fixed files; a
designer's own file has other numbers, and a bound or lemma that happens to hold for those files might not hold for
theirs. `card_file_texts()` draws whole card files that the loader accepts: the shipped set's structure (its piles,
stacks, Market spaces and Goals) with the rule numbers, the display, the supply, the cards' Budgets, costs, triggers
and effect counts, the Movement cards' Influence and icons and the Goals' costs and points drawn anew, often far from
the shipped values (a hand of three, one star to win, a threshold of 4, a draw-three card, a Victims effect of four).
Hypothesis shrinks a failing file towards the shipped one, so a failure names the few numbers that matter.
"""

from __future__ import annotations

import copy
import json
import tomllib
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from doubtspec.model.cards import CardSet, default_cards_path, parse_cards
from doubtspec.model.rulings import REGISTRY, Rulings

SHIPPED_DATA: dict[str, Any] = tomllib.loads(default_cards_path().read_text())
ZONES = ("children", "adults", "middle_age", "elderly")
TRIGGERS = (None, "print", "television")
ICONS = ("victims", "doubt", "profit", "text")
DRAWN = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                   HealthCheck.nested_given])
"""Settings for tests over drawn files: slow examples by nature, and a fuzz run inside a test is a whole run of its
own."""
COUNTED_OPS = {"victims": "count", "doubt": "count", "profit": "count", "draw": "count", "lobby": "count",
               "remove_market": "count", "discount": "amount"}
"""Company effects by the key that holds their size (each at least 1)."""


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string with ASCII escapes is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_value(item)}" for key, item in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def to_toml(data: dict[str, Any]) -> str:
    """A TOML document for the card-file data `data` (tables of key = value lines; every array inline).

    Arrays of tables are written as arrays of inline tables, one per line, which TOML reads back the same.
    """
    lines = [f"{key} = {_value(value)}" for key, value in data.items() if not isinstance(value, dict)]
    lines = [line.replace("}, {", "},\n  {") for line in lines]

    def table(name: str, body: dict[str, Any]) -> None:
        lines.append(f"\n[{name}]")
        for key, value in body.items():
            if not isinstance(value, dict):
                text = _value(value)
                if isinstance(value, list) and value and isinstance(value[0], dict):
                    text = "[\n  " + ",\n  ".join(_value(item) for item in value) + ",\n]"
                lines.append(f"{key} = {text}")
        for key, value in body.items():
            if isinstance(value, dict):
                table(f"{name}.{key}", value)

    for key, value in data.items():
        if isinstance(value, dict):
            table(key, value)
    return "\n".join(lines) + "\n"


def _effects(draw: st.DrawFn, effects: list[dict[str, Any]], draws: bool) -> list[dict[str, Any]]:
    """The effects with their sizes drawn again, and now and then a Profit, Victims or (if `draws`) draw effect
    added."""
    drawn = []
    for effect in effects:
        effect = dict(effect)
        key = COUNTED_OPS.get(effect["op"])
        if key is not None and draw(st.booleans()):
            effect[key] = draw(st.integers(1, 4))
        if effect["op"] == "victims" and draw(st.integers(0, 3)) == 0:
            effect["zone"] = draw(st.sampled_from(ZONES))
        drawn.append(effect)
    if draw(st.integers(0, 4)) == 0:
        extra = draw(st.sampled_from(["profit", "victims", "draw"] if draws else ["profit", "victims"]))
        effect = {"op": extra, "count": draw(st.integers(1, 3))}
        if extra == "victims":
            effect = {"op": "victims", "zone": draw(st.sampled_from(ZONES)), "count": effect["count"]}
        drawn.insert(draw(st.integers(0, len(drawn))), effect)
    return drawn


def _side(draw: st.DrawFn, side: dict[str, Any], draws: bool) -> dict[str, Any]:
    side = dict(side)
    draws = draws and not any(effect["op"] == "named" for effect in side["effects"])
    side["cost"] = draw(st.integers(0, 4))
    if draw(st.integers(0, 3)) == 0:
        side["icon"] = draw(st.sampled_from(ICONS))
    if draw(st.integers(0, 3)) == 0:
        trigger = draw(st.sampled_from(TRIGGERS))
        side.pop("trigger", None)
        if trigger is not None:
            side["trigger"] = trigger
    side["effects"] = _effects(draw, side["effects"], draws)
    if "on_reshuffle" in side:
        side["on_reshuffle"] = _effects(draw, side["on_reshuffle"], draws)
    return side


def _company_card(draw: st.DrawFn, card: dict[str, Any], modelled: bool) -> dict[str, Any]:
    card = dict(card)
    card["budget"] = draw(st.integers(0, 5))
    for name in ("standard", "reserve"):
        if name in card and draw(st.booleans()):
            card[name] = _side(draw, card[name], draws=not modelled or name == "standard")
    return card


def _movement_card(draw: st.DrawFn, card: dict[str, Any]) -> dict[str, Any]:
    card = dict(card)
    card["influence"] = draw(st.integers(0, 4))
    if "icons" in card:
        card["icons"] = {key: draw(st.integers(0, 3)) for key in card["icons"]}
    return card


def _chart(draw: st.DrawFn, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    steps = draw(st.lists(st.integers(1, 5), min_size=len(rows) - 1, max_size=len(rows) - 1))
    starts = [0]
    for step in steps:
        starts.append(starts[-1] + step)
    return [{"min_profit": start, "victims": {zone: draw(st.integers(0, 3)) for zone in row["victims"]}}
            for start, row in zip(starts, rows, strict=True)]


@st.composite
def card_file_data(draw: st.DrawFn, modelled: bool = False, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The shipped set's data (or `base`'s) with its numbers drawn anew (every card drawn again with probability
    about a half; the victory thresholds around the base's own: from a quarter of them to a little above).

    `modelled`: only files the solver models (`solver/unrolling/transition.py`'s `UnsupportedCards`): no draw
    added to a Reserve side, and exactly as many Doubt tokens as the display has free spaces at Set-Up.
    """
    data = copy.deepcopy(SHIPPED_DATA if base is None else base)
    rules = data["rules"]
    threshold, profit, stars = rules["star_threshold"], rules["profit_to_win"], rules["stars_to_win"]
    rules.update(company_hand_size=draw(st.integers(3, 7)),
                 star_threshold=draw(st.integers(max(2, threshold // 3), threshold + 4)),
                 stars_to_win=draw(st.integers(1, stars + 1)),
                 profit_to_win=draw(st.integers(max(2, profit // 4), profit * 5 // 4 + 2)),
                 movement_hand_limit=draw(st.integers(2, 4)), tableau_limit=draw(st.integers(4, 9)),
                 movement_starting_influence=draw(st.integers(1, 4)), goal_points_to_win=draw(st.integers(4, 14)),
                 stacks_dealt=draw(st.integers(1, rules["stacks_dealt"])))
    display = data["display"]
    display["doubt_values"] = {zone: draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)) for zone in ZONES}
    display["setup_doubt"] = {zone: draw(st.integers(0, len(display["doubt_values"][zone]))) for zone in ZONES}
    display["setup_victims"] = {zone: draw(st.integers(0, 4)) for zone in ZONES}
    display["acceptance_chart"] = _chart(draw, display["acceptance_chart"])
    supply = data["supply"]
    supply["victims"] = draw(st.integers(sum(display["setup_victims"].values()) + 4, 60))
    spaces, placed = sum(map(len, display["doubt_values"].values())), sum(display["setup_doubt"].values())
    supply["doubt"] = spaces if modelled else draw(st.integers(placed, spaces + 2))
    supply["profit"] = draw(st.integers(rules["profit_to_win"], 150))
    supply["stars"] = draw(st.integers(rules["stars_to_win"], max(4, rules["stars_to_win"])))
    redrawn = draw(st.floats(0.2, 0.8))
    company = data["company"]
    company["cards"] = [_company_card(draw, card, modelled) if draw(st.floats(0, 1)) < redrawn else card
                        for card in company["cards"]]
    movement = data["movement"]
    movement["cards"] = [_movement_card(draw, card) if draw(st.floats(0, 1)) < redrawn else card
                         for card in movement["cards"]]
    for goal in data["goals"]:
        if draw(st.floats(0, 1)) < redrawn:
            goal.update(cost=draw(st.integers(1, 8)), points=draw(st.integers(1, 5)))
    data["meta"]["name"] = f"A drawn variant of {data['meta']['name']}"
    return data


def differences(data: dict[str, Any], shipped: Any = None, path: str = "") -> list[str]:
    """Where `data` differs from the shipped set, one `path: shipped -> drawn` line each (cards by number).

    What a failing test prints instead of the whole file: the numbers that matter are among these.
    """
    shipped = SHIPPED_DATA if shipped is None and not path else shipped
    if isinstance(data, dict) and isinstance(shipped, dict):
        return [line for key in data for line in differences(data[key], shipped.get(key), f"{path}.{key}".lstrip("."))]
    if (isinstance(data, list) and isinstance(shipped, list) and len(data) == len(shipped)
            and all(isinstance(item, dict) and "number" in item for item in data)):
        return [line for old, new in zip(shipped, data, strict=True)
                for line in differences(new, old, f"{path}[{new['number']}]")]
    return [] if data == shipped else [f"{path}: {shipped!r} -> {data!r}"]


def rulings() -> st.SearchStrategy[Rulings]:
    """A choice for every selectable ruling (`model/rulings.py`), the default as likely as any other."""
    selectable = [ruling for ruling in REGISTRY if ruling.selectable]
    return st.tuples(*(st.sampled_from(ruling.choice_names) for ruling in selectable)).map(
        lambda choices: Rulings.parse(f"{ruling.id}={choice}" for ruling, choice in zip(selectable, choices,
                                                                                       strict=True)))


def card_file_texts(modelled: bool = False) -> st.SearchStrategy[str]:
    """TOML texts of drawn card files (see the module's docstring and `card_file_data`)."""
    return card_file_data(modelled).map(to_toml)


def card_sets(modelled: bool = False) -> st.SearchStrategy[CardSet]:
    """Drawn card files, loaded."""
    return card_file_texts(modelled).map(lambda text: parse_cards(text, "drawn.toml"))


def loaded(data: dict[str, Any]) -> CardSet:
    """The card set of drawn data, through the loader as a designer's file goes."""
    return parse_cards(to_toml(data), "drawn.toml")
