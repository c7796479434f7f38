"""Reading phone photos of printed sheets: locating the page, reading the cells, digit/mark classifier."""

#: a photo that sees the page coarser than this (pixels per millimetre of paper) loses the
#: strokes of digits: the reader says so and flags more cells
ADVISED_PX_PER_MM = 4.0
