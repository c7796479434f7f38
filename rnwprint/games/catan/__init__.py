"""Catan roll & write: 2-4 players draw on one shared island map, each in a pencil colour."""
