"""The coloured pencils players mark Catan's map with: RGB of a firm stroke on white paper
(the reader names a mark's pencil by these; the test-photo generator draws with them)."""

PENCILS = {"red": (205, 45, 50), "blue": (45, 85, 195), "green": (45, 145, 70), "orange": (240, 135, 30)}
