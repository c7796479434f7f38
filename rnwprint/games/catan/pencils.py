"""The coloured pencils players mark Catan's map with: RGB of a firm stroke on white paper
(the reader names a mark's pencil by these; the test-photo generator draws with them)."""

PENCILS = {"red": (205, 45, 50), "blue": (45, 85, 195), "green": (45, 145, 70), "orange": (240, 135, 30)}
#: each pencil's name in the locale files (the sheet's legend, the audit's report)
COLOUR_LABEL = {"red": "catan.colour_red", "blue": "catan.colour_blue", "green": "catan.colour_green",
                "orange": "catan.colour_orange"}
COLOUR_FEMININE = {"red": "catan.colour_red_feminine", "blue": "catan.colour_blue_feminine",  # "ciudad roja"
                   "green": "catan.colour_green_feminine", "orange": "catan.colour_orange_feminine"}
