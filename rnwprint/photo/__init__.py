"""Reading phone photos of printed sheets: locating the page, reading the cells, digit/mark classifier."""
