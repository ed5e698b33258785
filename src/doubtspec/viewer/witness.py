"""The page of a solver answer's witness: the game from Set-Up that reaches what was asked."""

from __future__ import annotations

from pathlib import Path

from doubtspec.model.game import Game
from doubtspec.solver.queries import Answer
from doubtspec.viewer.document import Document, document_for_witness
from doubtspec.viewer.page import write_page


def answer_facts(answer: Answer) -> list[tuple[str, str]]:
    """What the page says about the answer beside the card set and rulings."""
    status = answer.status.upper()
    if answer.earliest is not None:
        status += (f": earliest at turn {answer.earliest} (proved)" if answer.earliest_exact
                   else f": witness at turn {answer.earliest}")
    facts = [("Answer", status)]
    if answer.witness_from:
        facts.append(("Witness from", answer.witness_from))
    facts.append(("Assumed", "; ".join(answer.assumptions.lines())))
    return facts


def witness_document(game: Game, answer: Answer) -> Document:
    """The document of an answer that has a witness."""
    assert answer.witness is not None, "only a 'yes' answer has a witness"
    return document_for_witness(game, answer.witness.actions, answer.question, answer_facts(answer))


def write_witness_page(path: Path, game: Game, answer: Answer) -> None:
    write_page(path, witness_document(game, answer))
