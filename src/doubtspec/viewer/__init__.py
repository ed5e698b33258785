"""A self-contained HTML viewer for failure reports, solver witnesses and played games.

The board at every step is the engine's own state (`board`), the card names and printed values
come from the card file in force (`catalogue`), the steps are stored as changes (`timeline`), and
one HTML file holds it all (`document`, `page`).
"""
